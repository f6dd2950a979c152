package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.LocalQueueFairSharingStatus;
import io.fleetkit.queueing.Workload;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * Admission fair sharing in the engine (Kueue's {@code AdmissionFairSharing} feature with its Configuration): what the
 * scheduler, the workload controller and the LocalQueue controller do about it, on the scheduler's events.
 *
 * <ul>
 *   <li>{@link #sample}, at the start of every cycle: Kueue's LocalQueue controller reconciles every LocalQueue that
 *       is not stopped and whose ClusterQueue exists and is active ({@link LocalQueueUsageSampler#reconcile}, which
 *       samples at most once per interval unless a penalty is pending);
 *   <li>{@link #reserved}: a reservation in a usage-based ClusterQueue pushes the workload's entry penalty (Kueue's
 *       scheduler, {@code updateEntryPenalty});
 *   <li>{@link #admitted}: the workload becoming admitted settles it (Kueue's workload controller, {@code
 *       updateAfsConsumedUsage});
 *   <li>{@link #gone}: a workload deleted or deactivated drops a penalty it can no longer settle;
 *   <li>{@link #candidateUsage}: the preemptor takes victims of the busier LocalQueue of its ClusterQueue first.
 * </ul>
 *
 * <p>A LocalQueue's admitted usage is what its admitted workloads' quota reservations use (reserved workloads whose
 * checks are not all Ready excluded), summed over flavors by resource name.
 */
final class AfsAccounting {
  private final AfsUsageLedger ledger = new AfsUsageLedger();
  private final LocalQueueUsageSampler sampler;
  private final AfsOrder order;
  private final QueueRegistry registry;
  private final FlavorResources index;

  AfsAccounting(AdmissionFairSharing config, QueueRegistry registry) {
    this.sampler = new LocalQueueUsageSampler(config, ledger);
    this.registry = registry;
    this.index = registry.index();
    this.order = new AfsOrder(sampler, registry::fairSharingWeight);
    registry.admissionFairSharing(order);
  }

  /**
   * The usage of {@code w}'s LocalQueue if its ClusterQueue orders by admission fair sharing, else {@code null} (what
   * the preemptor's candidate order reads).
   */
  @Nullable Double candidateUsage(AdmittedWorkload w) {
    return registry.usesAdmissionFairSharing(w.cq) ? order.usage(lqKey(w.workload)) : null;
  }

  AdmissionFairSharing config() {
    return sampler.config();
  }

  /** The ledger (for the engine's tests, which seed it as Kueue's do). */
  AfsUsageLedger ledger() {
    return ledger;
  }

  /** Kueue's LocalQueue controller over every LocalQueue it reconciles. */
  void sample(Collection<AdmittedWorkload> withQuota, Predicate<String> isAdmitted, Instant now) {
    Map<String, TreeMap<String, BigDecimal>> usage = admittedUsage(withQuota, isAdmitted);
    for (LocalQueue lq : registry.localQueues()) {
      if (lq.stopPolicy().stops()) {
        continue;
      }
      CqState cq = registry.queue(lq.clusterQueue());
      if (cq == null || cq.removed || !cq.active()) {
        continue;
      }
      sampler.reconcile(lq.key(), usage.getOrDefault(lq.key(), new TreeMap<>()), now);
    }
  }

  /** A reservation of {@code w} made by a cycle: its entry penalty if its ClusterQueue is usage-based. */
  void reserved(AdmittedWorkload w, Instant now) {
    if (!registry.usesAdmissionFairSharing(w.cq)) {
      return;
    }
    TreeMap<String, BigDecimal> penalty = AfsMath.entryPenalty(amounts(w), sampler.config());
    ledger.pushPenalty(lqKey(w.workload), w.key(), penalty, now);
  }

  /** {@code w} became admitted: its LocalQueue's history decays to now and its penalty settles into it. */
  void admitted(AdmittedWorkload w, Collection<AdmittedWorkload> withQuota, Predicate<String> isAdmitted, Instant now) {
    if (!registry.usesAdmissionFairSharing(w.cq)) {
      return;
    }
    String lq = lqKey(w.workload);
    Map<String, TreeMap<String, BigDecimal>> usage = admittedUsage(withQuota, isAdmitted);
    sampler.settle(lq, w.key(), usage.getOrDefault(lq, new TreeMap<>()), now);
  }

  /** {@code wl} was deleted or deactivated: a penalty it has pending is dropped. */
  void gone(Workload wl) {
    ledger.subPenalty(lqKey(wl), wl.key());
  }

  /** A LocalQueue was removed: its status and usage are forgotten. */
  void forget(String lqKey) {
    sampler.forget(lqKey);
  }

  /** A LocalQueue's weight may have changed: the queues ordered by it reorder. */
  void weightsChanged() {
    ledger.changed();
  }

  @Nullable LocalQueueFairSharingStatus status(String lqKey) {
    return sampler.status(lqKey);
  }

  void status(String lqKey, LocalQueueFairSharingStatus status) {
    sampler.status(lqKey, status);
  }

  /** The usage the queue order gives LocalQueue {@code lqKey} now. */
  double usage(String lqKey) {
    return order.usage(lqKey);
  }

  private Map<String, TreeMap<String, BigDecimal>> admittedUsage(Collection<AdmittedWorkload> withQuota,
      Predicate<String> isAdmitted) {
    Map<String, TreeMap<String, BigDecimal>> out = new HashMap<>();
    for (AdmittedWorkload w : withQuota) {
      if (isAdmitted.test(w.key())) {
        out.merge(lqKey(w.workload), amounts(w), AfsMath::sum);
      }
    }
    return out;
  }

  /** What {@code w}'s reservation uses, by resource name, summed over flavors. */
  private TreeMap<String, BigDecimal> amounts(AdmittedWorkload w) {
    TreeMap<String, BigDecimal> out = new TreeMap<>();
    for (int i = 0; i < w.frs.length; i++) {
      out.merge(index.resource(w.frs[i]), BigDecimal.valueOf(w.values[i], 3), BigDecimal::add);
    }
    return out;
  }

  static String lqKey(Workload wl) {
    return wl.namespace() + "/" + wl.queueName();
  }
}
