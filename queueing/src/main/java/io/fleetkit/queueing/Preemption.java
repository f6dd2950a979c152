package io.fleetkit.queueing;

import java.util.Objects;

/**
 * One workload evicted to make room for another.
 *
 * @param workload the victim's key
 * @param clusterQueue the victim's ClusterQueue
 * @param preemptor the key of the workload it made room for
 * @param reason why
 */
public record Preemption(String workload, String clusterQueue, String preemptor, PreemptionReason reason) {
  public Preemption {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(preemptor, "preemptor");
    Objects.requireNonNull(reason, "reason");
  }
}
