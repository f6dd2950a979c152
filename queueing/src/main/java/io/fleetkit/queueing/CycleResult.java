package io.fleetkit.queueing;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one scheduling cycle did.
 *
 * @param admitted the workloads that got quota (Kueue's {@code QuotaReserved}; without admission checks that
 *     applied to them they are admitted too), in reservation order
 * @param preempted the workloads evicted to make room (they are back in their queues)
 * @param pending workloads tried in this cycle and not admitted: key to the reason, e.g. {@code couldn't assign flavors
 *     to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed}
 * @param checks what admission checks did to workloads with reserved quota, in reservation order: admitted
 *     (every check ready), evicted (a Retry check) or deactivated (a Rejected check); empty when no queue has checks
 * @param podsReadyEvictions the admitted workloads {@code waitForPodsReady} evicted or deactivated at the start of the
 *     cycle because their pods were not ready in time; empty without {@code waitForPodsReady}
 * @param nodeReplacements what the cycle did about admitted workloads with an unhealthy node in their topology
 *     assignments (Kueue's node replacement), in admission order; empty when no node failed
 * @param queueStops the workloads that lost their quota because their ClusterQueue or LocalQueue was stopped since
 *     the last cycle ({@link StopPolicy}), in eviction order; empty when no queue was stopped
 */
public record CycleResult(List<QuotaReservation> admitted, List<Preemption> preempted, Map<String, String> pending,
    List<CheckOutcome> checks, List<PodsReadyEviction> podsReadyEvictions, List<NodeReplacement> nodeReplacements,
    List<QueueStopEviction> queueStops) {
  public CycleResult {
    queueStops = List.copyOf(Objects.requireNonNull(queueStops, "queueStops"));
    nodeReplacements = List.copyOf(Objects.requireNonNull(nodeReplacements, "nodeReplacements"));
    podsReadyEvictions = List.copyOf(Objects.requireNonNull(podsReadyEvictions, "podsReadyEvictions"));
    admitted = List.copyOf(Objects.requireNonNull(admitted, "admitted"));
    preempted = List.copyOf(Objects.requireNonNull(preempted, "preempted"));
    pending = Map.copyOf(Objects.requireNonNull(pending, "pending"));
    checks = List.copyOf(Objects.requireNonNull(checks, "checks"));
  }

  /** A cycle without queue stops. */
  public CycleResult(List<QuotaReservation> admitted, List<Preemption> preempted, Map<String, String> pending,
      List<CheckOutcome> checks, List<PodsReadyEviction> podsReadyEvictions, List<NodeReplacement> nodeReplacements) {
    this(admitted, preempted, pending, checks, podsReadyEvictions, nodeReplacements, List.of());
  }

  /** A cycle without node replacements. */
  public CycleResult(List<QuotaReservation> admitted, List<Preemption> preempted, Map<String, String> pending,
      List<CheckOutcome> checks, List<PodsReadyEviction> podsReadyEvictions) {
    this(admitted, preempted, pending, checks, podsReadyEvictions, List.of());
  }

  /** A cycle without {@code waitForPodsReady} evictions. */
  public CycleResult(List<QuotaReservation> admitted, List<Preemption> preempted, Map<String, String> pending,
      List<CheckOutcome> checks) {
    this(admitted, preempted, pending, checks, List.of());
  }

  /** A cycle of quota reservations without admission checks. */
  public CycleResult(List<QuotaReservation> admitted, List<Preemption> preempted, Map<String, String> pending) {
    this(admitted, preempted, pending, List.of());
  }

  /**
   * Whether the cycle changed anything (a node replacement that failed without {@code failFast} changes nothing: the
   * next cycle tries again).
   */
  public boolean progressed() {
    return !admitted.isEmpty() || !preempted.isEmpty() || !checks.isEmpty() || !podsReadyEvictions.isEmpty()
        || !queueStops.isEmpty()
        || nodeReplacements.stream().anyMatch(r -> r.kind() != NodeReplacement.Kind.FAILED);
  }
}
