package io.fleetkit.api.scheduling;

/** Whether a pod may preempt lower-priority pods; Kubernetes defaults it to {@link #PreemptLowerPriority}. */
public enum PreemptionPolicy {
  PreemptLowerPriority,
  Never
}
