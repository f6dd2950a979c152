package io.fleetkit.queueing;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one scheduling cycle did.
 *
 * @param admitted the workloads that got quota, in admission order
 * @param preempted the workloads evicted to make room (they are back in their queues)
 * @param pending workloads tried in this cycle and not admitted: key to the reason, e.g. {@code couldn't assign flavors
 *     to pod set main: insufficient unused quota for cpu in flavor default, 1 more needed}
 */
public record CycleResult(List<QuotaReservation> admitted, List<Preemption> preempted, Map<String, String> pending) {
  public CycleResult {
    admitted = List.copyOf(Objects.requireNonNull(admitted, "admitted"));
    preempted = List.copyOf(Objects.requireNonNull(preempted, "preempted"));
    pending = Map.copyOf(Objects.requireNonNull(pending, "pending"));
  }

  /** Whether the cycle changed anything. */
  public boolean progressed() {
    return !admitted.isEmpty() || !preempted.isEmpty();
  }
}
