package io.fleetkit.admission;

import io.fleetkit.api.admission.AdmissionRequest;
import io.fleetkit.api.admission.AdmissionVerdict;
import io.fleetkit.api.admission.ValidatingAdmissionPlugin;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.List;
import java.util.Objects;

/**
 * Kubernetes' ResourceQuota admission ({@code k8s.io/apiserver/pkg/admission/plugin/resourcequota}): a create is
 * charged against every quota of its namespace that applies to it (see {@link QuotaEvaluator#matches}), and denied
 * with upstream's message {@code exceeded quota: NAME, requested: r=v, used: r=v, limited: r=v} when a hard limit
 * would be passed, or {@code failed quota: NAME: must specify ...} when the quota tracks cpu or memory and a
 * container does not set it.
 *
 * <p>Charges go to a {@link QuotaLedger}: the usage in memory, all quotas of a namespace checked and charged together,
 * {@code status.used} published on a cadence (see there). A store that other processes write too
 * ({@link ObjectStore#sharedWithOtherProcesses()}, a store on etcd) is charged through the quotas' status instead,
 * one compare-and-set per applying quota, as the Kubernetes API servers do, so that processes admitting into the
 * same store together never pass a limit. If a later plugin or the store's write refuses the
 * request, the charges are given back (upstream leaves them to the quota controller's next recount). A quota whose
 * status does not yet cover its spec (new or changed) is first recounted from the store, which is what upstream's
 * quota controller does before admission can use it. Creates are charged, and updates of Services and claims by
 * what they grow; deletions are not admitted here (usage goes down when {@link QuotaRecount} recounts, which a
 * {@link QuotaReplenisher} does after deletions).
 */
public final class ResourceQuotaPlugin implements ValidatingAdmissionPlugin {
  public static final String NAME = "ResourceQuota";
  /** Compare-and-set attempts per status write before giving up. */
  static final int MAX_ATTEMPTS = 1000;

  private final Clock clock;
  private final QuotaLedger ledger;
  private final List<LimitedResource> limited;

  /** Charging a ledger of its own that publishes every {@link QuotaLedger#DEFAULT_PUBLISH_INTERVAL}. */
  public ResourceQuotaPlugin(Clock clock) {
    this(clock, QuotaLedger.publishingEvery(QuotaLedger.DEFAULT_PUBLISH_INTERVAL));
  }

  /** Charging {@code ledger}, which publishes the statuses as it was built to. */
  public ResourceQuotaPlugin(Clock clock, QuotaLedger ledger) {
    this(clock, ledger, List.of());
  }

  /**
   * Charging {@code ledger}, with the admission configuration's {@code limitedResources}: consumption that needs a
   * covering quota (see {@link LimitedResource}).
   */
  public ResourceQuotaPlugin(Clock clock, QuotaLedger ledger, List<LimitedResource> limitedResources) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.limited = List.copyOf(limitedResources);
  }

  public ResourceQuotaPlugin() {
    this(Clock.systemUTC());
  }

  /** The ledger charged. */
  public QuotaLedger ledger() {
    return ledger;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public AdmissionVerdict validate(AdmissionRequest request, ObjectStore store) {
    if (!request.object().namespaced() || !handles(request)) {
      return AdmissionVerdict.allow();
    }
    if (store.sharedWithOtherProcesses()) {
      return QuotaStatusCharge.charge(store, request, clock, limited);
    }
    return ledger.charge(store, request, clock, limited);
  }

  /**
   * Creates of namespaced objects; updates of Services and PersistentVolumeClaims, whose usage can grow (type
   * changes, storage expansion). Pod updates and all deletions are not charged, as upstream (bar in-place resize).
   */
  private static boolean handles(AdmissionRequest request) {
    return switch (request.operation()) {
      case CREATE -> true;
      case UPDATE -> request.object() instanceof Service || request.object() instanceof PersistentVolumeClaim;
      case DELETE -> false;
    };
  }

  /** Whether {@code q}'s status holds a usage for every hard limit of its spec ({@code hasUsageStats}). */
  static boolean statusCovers(ResourceQuota q) {
    if (!q.status().hard().equals(q.spec().hard())) {
      return false;
    }
    for (String r : q.spec().hard().names()) {
      if (!q.status().used().has(r)) {
        return false;
      }
    }
    return true;
  }
}
