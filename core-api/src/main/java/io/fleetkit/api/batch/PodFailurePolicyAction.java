package io.fleetkit.api.batch;

/** What a matching {@link PodFailurePolicyRule} does with a failed pod (batch/v1 {@code PodFailurePolicyAction}). */
public enum PodFailurePolicyAction {
  /** The Job fails (reason {@code PodFailurePolicy}) and its running pods are deleted. */
  FailJob,
  /**
   * The pod's index fails at once (it is not retried; the Job's other indexes go on). Needs
   * {@code backoffLimitPerIndex}: a Job without it is refused when it is built.
   */
  FailIndex,
  /** The failure does not count towards {@code backoffLimit}; a replacement pod is created. */
  Ignore,
  /** The failure counts towards {@code backoffLimit}, as without a policy. */
  Count
}
