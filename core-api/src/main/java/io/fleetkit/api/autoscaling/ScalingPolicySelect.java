package io.fleetkit.api.autoscaling;

/** Which of several scaling policies wins, spelled as in {@code autoscaling/v2}. */
public enum ScalingPolicySelect {
  /** The policy allowing the largest change (the default). */
  Max,
  /** The policy allowing the smallest change. */
  Min,
  /** No scaling in this direction. */
  Disabled
}
