package io.fleetkit.api.batch;

/** How {@link PodFailurePolicyOnExitCodesRequirement#values()} are compared with a container's exit code. */
public enum PodFailurePolicyOnExitCodesOperator {
  /** Matches when the exit code is one of the values. */
  In,
  /** Matches when the exit code is none of the values. */
  NotIn
}
