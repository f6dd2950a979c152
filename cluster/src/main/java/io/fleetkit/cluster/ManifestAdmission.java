package io.fleetkit.cluster;

import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.admission.Admission;
import io.fleetkit.admission.PriorityPlugin;
import io.fleetkit.admission.QuotaLedger;
import io.fleetkit.admission.ServiceAccountsController;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.admission.AdmissionDeniedException;
import io.fleetkit.api.admission.AdmissionOperation;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.ServiceAccount;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.scheduling.PriorityClass;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityArgs;
import io.fleetkit.scheduler.plugins.interpodaffinity.InterPodAffinityPlugin;
import io.fleetkit.scheduler.plugins.interpodaffinity.NamespaceLookups;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Applies manifests through the store's standard admission chain with ServiceAccount admission
 * ({@link Admission#withServiceAccounts}), as an API server would when they are applied, when they use the tenancy
 * kinds (Namespace, ResourceQuota or LimitRange): Namespaces and PriorityClasses first, then LimitRanges, quotas and
 * ServiceAccounts, then everything else in file order. The immortal namespaces ({@code default}, {@code kube-system},
 * {@code kube-public}) exist as in any cluster, and the ServiceAccounts controller gives every namespace its
 * {@code default} account (a manifest's {@code default} account replaces it), as {@code fleetkit simulate} does.
 * Manifests without those kinds get Priority admission only, on their pods.
 */
final class ManifestAdmission {
  /** The objects as admitted (LimitRange defaults applied, refused ones left out) and the refusals. */
  record Result(LoadedObjects loaded, List<ScheduleOutcome.Rejected> rejected) {}

  private ManifestAdmission() {}

  /** Whether the manifests use the tenancy kinds (Namespace, ResourceQuota, LimitRange), which turn admission on. */
  static boolean usesTenancy(LoadedObjects loaded) {
    return Admission.usesTenancy(loaded.objects());
  }

  static Result apply(LoadedObjects loaded) {
    if (!usesTenancy(loaded)) {
      return withPriorities(loaded);
    }
    List<ApiObject<?>> ordered = Admission.creationOrder(loaded.objects());
    List<ApiObject<?>> admitted = new ArrayList<>();
    List<ScheduleOutcome.Rejected> rejected = new ArrayList<>();
    AdmissionChain chain = Admission.withServiceAccounts(java.time.Clock.systemUTC());
    try (ObjectStore store = ObjectStore.builder().directDelivery().admission(chain).build();
        ServiceAccountsController accounts = ServiceAccountsController.of(store).start()) {
      for (Namespace ns : Admission.missingImmortalNamespaces(loaded.objects())) {
        store.create(ns);
      }
      for (ApiObject<?> o : ordered) {
        try {
          // a namespace's default account replaces the one the controller made
          admitted.add(unstored(o instanceof ServiceAccount sa ? ServiceAccountsController.apply(store, sa)
              : create(store, o)));
        } catch (AdmissionDeniedException e) {
          rejected.add(new ScheduleOutcome.Rejected(name(o), e.getMessage()));
        }
      }
      // Quotas as charged by what was admitted.
      QuotaLedger.of(chain).ifPresent(QuotaLedger::publish);
      for (int i = 0; i < admitted.size(); i++) {
        if (admitted.get(i) instanceof ResourceQuota q) {
          admitted.set(i, unstored(store.require(ResourceQuota.class, q.metadata().namespace(),
              q.metadata().name())));
        }
      }
    }
    Map<String, Integer> counts = new TreeMap<>();
    for (ApiObject<?> o : admitted) {
      counts.merge(o.kind(), 1, Integer::sum);
    }
    return new Result(new LoadedObjects(admitted, counts), rejected);
  }

  /**
   * Manifests without the tenancy kinds: only Priority admission runs, as an API server would, on each pod without a
   * priority (its class resolved against the loaded PriorityClasses, the global default, or priority 0; a missing
   * class is refused), so that the scheduler gets pods with their priority, as kube-scheduler does. A pod whose
   * manifest gives a priority is taken as already admitted.
   */
  private static Result withPriorities(LoadedObjects loaded) {
    if (loaded.objects().stream().noneMatch(o -> o instanceof Pod)) {
      return new Result(loaded, List.of());
    }
    AdmissionChain chain = AdmissionChain.of(PriorityPlugin.keepingGivenPriorities());
    List<ApiObject<?>> out = new ArrayList<>();
    List<ScheduleOutcome.Rejected> rejected = new ArrayList<>();
    try (ObjectStore classes = ObjectStore.builder().directDelivery().build()) {
      for (PriorityClass pc : loaded.ofType(PriorityClass.class)) {
        if (classes.get(PriorityClass.class, "", pc.metadata().name()).isEmpty()) {
          classes.create(pc);
        }
      }
      for (ApiObject<?> o : loaded.objects()) {
        if (!(o instanceof Pod pod)) {
          out.add(o);
          continue;
        }
        try {
          out.add(chain.admit(AdmissionOperation.CREATE, pod, null, classes).object());
        } catch (AdmissionDeniedException e) {
          rejected.add(new ScheduleOutcome.Rejected(name(o), e.getMessage()));
        }
      }
    }
    if (rejected.isEmpty() && out.size() == loaded.objects().size()) {
      return new Result(new LoadedObjects(out, loaded.countsByKind()), List.of());
    }
    Map<String, Integer> counts = new TreeMap<>();
    for (ApiObject<?> o : out) {
      counts.merge(o.kind(), 1, Integer::sum);
    }
    return new Result(new LoadedObjects(out, counts), rejected);
  }

  /** Creates {@code o}, without the resourceVersion a cluster's dump gives it (the store owns it). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ApiObject<?> create(ObjectStore store, ApiObject o) {
    return (ApiObject<?>) store.create((ApiObject) ManifestScheduling.creatable(o));
  }

  /** {@code o} without what this store assigned (uid, resourceVersion, generation, creation time). */
  @SuppressWarnings({"unchecked", "rawtypes"})
  private static ApiObject<?> unstored(ApiObject o) {
    ObjectMeta m = o.metadata();
    return (ApiObject<?>) o.withMetadata(m.toBuilder().uid("").resourceVersion("").generation(0)
        .creationTimestamp(null).build());
  }

  static String name(ApiObject<?> o) {
    String ns = o.metadata().namespace();
    return o.kind() + "/" + (ns.isEmpty() ? "" : ns + "/") + o.metadata().name();
  }

  /**
   * {@code profiles} with InterPodAffinity's {@code namespaceSelector} resolved against the loaded Namespaces,
   * unless a profile sets its own lookup; unchanged when no Namespace was loaded.
   */
  static List<SchedulerProfile> withNamespaceLabels(List<SchedulerProfile> profiles, LoadedObjects loaded) {
    List<Namespace> namespaces = new ArrayList<>(loaded.ofType(Namespace.class));
    if (namespaces.isEmpty()) {
      return profiles;
    }
    namespaces.addAll(Admission.missingImmortalNamespaces(namespaces));
    List<SchedulerProfile> out = new ArrayList<>();
    for (SchedulerProfile p : profiles) {
      Map<String, Object> args = new LinkedHashMap<>(p.pluginArgs().getOrDefault(InterPodAffinityPlugin.NAME,
          Map.of()));
      if (args.containsKey(InterPodAffinityArgs.NAMESPACE_LABELS)) {
        out.add(p);
        continue;
      }
      args.put(InterPodAffinityArgs.NAMESPACE_LABELS, NamespaceLookups.of(namespaces));
      out.add(p.toBuilder().pluginArgs(InterPodAffinityPlugin.NAME, new HashMap<>(args)).build());
    }
    return out;
  }
}
