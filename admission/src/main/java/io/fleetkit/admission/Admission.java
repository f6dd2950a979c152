package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.core.LimitRange;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.scheduling.PriorityClass;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/** Ready-made admission chains. */
public final class Admission {
  private Admission() {}

  /**
   * NamespaceLifecycle, LimitRanger, Priority, DefaultTolerationSeconds, ResourceQuota: the order of Kubernetes'
   * recommended plugins (quota last, since it charges usage), with the system clock; after NamespaceLifecycle,
   * DRAAdminAccess ({@link DraAdminAccessPlugin}), the check Kubernetes' claim registries make.
   */
  public static AdmissionChain standard() {
    return standard(Clock.systemUTC());
  }

  /**
   * Whether {@code objects} hold Namespaces, ResourceQuotas or LimitRanges: what makes manifests need the standard
   * chain (without them its NamespaceLifecycle would refuse every namespace but those created on the fly).
   */
  public static boolean usesTenancy(Collection<? extends ApiObject<?>> objects) {
    for (ApiObject<?> o : objects) {
      if (o instanceof Namespace || o instanceof ResourceQuota || o instanceof LimitRange) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code objects} in the order an API server with the standard chain needs them created: Namespaces and
   * PriorityClasses, then LimitRanges, ResourceQuotas and ServiceAccounts (which admit or default what follows), then
   * the rest; the order given is kept within each group.
   */
  public static List<ApiObject<?>> creationOrder(Collection<? extends ApiObject<?>> objects) {
    List<ApiObject<?>> out = new ArrayList<>(objects.size());
    for (int group = 0; group < 3; group++) {
      for (ApiObject<?> o : objects) {
        if (creationGroup(o) == group) {
          out.add(o);
        }
      }
    }
    return out;
  }

  /**
   * The namespaces every cluster has ({@link NamespaceLifecyclePlugin#IMMORTAL}: {@code default},
   * {@code kube-public}, {@code kube-system}) that {@code objects} do not hold, by name.
   */
  public static List<Namespace> missingImmortalNamespaces(Collection<? extends ApiObject<?>> objects) {
    TreeSet<String> missing = new TreeSet<>(NamespaceLifecyclePlugin.IMMORTAL);
    for (ApiObject<?> o : objects) {
      if (o instanceof Namespace n) {
        missing.remove(n.metadata().name());
      }
    }
    return missing.stream().map(Namespace::of).toList();
  }

  private static int creationGroup(ApiObject<?> o) {
    if (o instanceof Namespace || o instanceof PriorityClass) {
      return 0;
    }
    return o instanceof LimitRange || o instanceof ResourceQuota || o instanceof ServiceAccount ? 1 : 2;
  }

  /**
   * {@link #standard()} with {@code clock} for the quota's "terminal pod" rule; quotas are charged to a ledger of the
   * chain's own ({@link QuotaLedger#of(AdmissionChain)}) that publishes every
   * {@link QuotaLedger#DEFAULT_PUBLISH_INTERVAL}.
   */
  public static AdmissionChain standard(Clock clock) {
    return AdmissionChain.of(new NamespaceLifecyclePlugin(), new DraAdminAccessPlugin(), new LimitRangerPlugin(),
        new PriorityPlugin(), new DefaultTolerationSecondsPlugin(), new ResourceQuotaPlugin(clock));
  }

  /**
   * {@link #standard(Clock)} with ServiceAccount admission ({@link ServiceAccountPlugin}) after LimitRanger, where
   * Kubernetes' recommended order has it: pods get the {@code default} service account and are refused when theirs
   * does not exist. Run a {@link ServiceAccountsController} on the store (as every cluster runs the controller
   * manager's), or every pod is refused until its namespace has its {@code default} account.
   */
  public static AdmissionChain withServiceAccounts(Clock clock) {
    return AdmissionChain.of(new NamespaceLifecyclePlugin(), new DraAdminAccessPlugin(), new LimitRangerPlugin(),
        new ServiceAccountPlugin(), new PriorityPlugin(), new DefaultTolerationSecondsPlugin(),
        new ResourceQuotaPlugin(clock));
  }

  /** {@link #standard(Clock)} with ResourceQuota charging {@code ledger} (see {@link QuotaLedger}). */
  public static AdmissionChain standard(Clock clock, QuotaLedger ledger) {
    return AdmissionChain.of(new NamespaceLifecyclePlugin(), new DraAdminAccessPlugin(), new LimitRangerPlugin(),
        new PriorityPlugin(), new DefaultTolerationSecondsPlugin(), new ResourceQuotaPlugin(clock, ledger));
  }
}
