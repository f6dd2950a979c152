package io.fleetkit.queueing;

/**
 * Which workloads may be preempted (Kueue {@code PreemptionPolicy}). {@code withinClusterQueue} accepts {@link #NEVER},
 * {@link #LOWER_PRIORITY} and {@link #LOWER_OR_NEWER_EQUAL_PRIORITY}; {@code reclaimWithinCohort} accepts {@link
 * #NEVER}, {@link #LOWER_PRIORITY} and {@link #ANY}.
 */
public enum QueuePreemptionPolicy {
  NEVER("Never"),
  LOWER_PRIORITY("LowerPriority"),
  /** Lower priority, or equal priority and created after the preemptor. */
  LOWER_OR_NEWER_EQUAL_PRIORITY("LowerOrNewerEqualPriority"),
  ANY("Any");

  private final String kueueName;

  QueuePreemptionPolicy(String kueueName) {
    this.kueueName = kueueName;
  }

  /** Kueue's spelling, e.g. {@code LowerPriority}. */
  public String kueueName() {
    return kueueName;
  }
}
