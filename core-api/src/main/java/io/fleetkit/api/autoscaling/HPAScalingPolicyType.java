package io.fleetkit.api.autoscaling;

/** How a scaling policy limits change, spelled as in {@code autoscaling/v2}. */
public enum HPAScalingPolicyType {
  /** At most {@code value} pods per period. */
  Pods,
  /** At most {@code value} percent of the current pods per period. */
  Percent
}
