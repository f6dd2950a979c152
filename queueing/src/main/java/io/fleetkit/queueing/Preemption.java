package io.fleetkit.queueing;

import java.util.Objects;

/**
 * One workload evicted to make room for another.
 *
 * @param workload the victim's key
 * @param clusterQueue the victim's ClusterQueue
 * @param preemptor the key of the workload it made room for
 * @param reason why
 * @param preemptorPath the preemptor's ClusterQueue with its cohorts from the root, as Kueue prints it
 *     ({@code /root/child/queue}; {@code /queue} without a cohort)
 * @param preempteePath the victim's ClusterQueue with its cohorts from the root
 */
public record Preemption(
    String workload,
    String clusterQueue,
    String preemptor,
    PreemptionReason reason,
    String preemptorPath,
    String preempteePath) {
  public Preemption {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(clusterQueue, "clusterQueue");
    Objects.requireNonNull(preemptor, "preemptor");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(preemptorPath, "preemptorPath");
    Objects.requireNonNull(preempteePath, "preempteePath");
  }

  /**
   * Kueue's {@code Preempted} condition message, with the preemptor's key where Kueue gives its UIDs: {@code
   * Preempted to accommodate a workload (team/urgent) due to reclamation within the cohort; preemptor path:
   * /root/left/cq-left; preemptee path: /root/right/cq-right}.
   */
  public String message() {
    return "Preempted to accommodate a workload (" + preemptor + ") due to " + reason.humanReadable()
        + "; preemptor path: " + preemptorPath + "; preemptee path: " + preempteePath;
  }
}
