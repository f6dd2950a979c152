package io.fleetkit.api.batch;

/** What a matching {@link PodFailurePolicyRule} does with a failed pod (batch/v1 {@code PodFailurePolicyAction}). */
public enum PodFailurePolicyAction {
  /** The Job fails (reason {@code PodFailurePolicy}) and its running pods are deleted. */
  FailJob,
  /**
   * The pod's index fails. Needs {@code backoffLimitPerIndex}, which FleetKit does not model: a Job with this action
   * is refused when it is built.
   */
  FailIndex,
  /** The failure does not count towards {@code backoffLimit}; a replacement pod is created. */
  Ignore,
  /** The failure counts towards {@code backoffLimit}, as without a policy. */
  Count
}
