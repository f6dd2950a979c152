package io.fleetkit.api.rollouts;

/** The phase of a rollout (Argo Rollouts' {@code RolloutPhase}). */
public enum RolloutPhase {
  /** The desired version is fully rolled out and available. */
  Healthy,
  /** An update is under way. */
  Progressing,
  /** An update waits for a pause to end or a promote. */
  Paused,
  /** The update was aborted (by hand, by a failed analysis) or missed its progress deadline. */
  Degraded
}
