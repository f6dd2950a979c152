package io.fleetkit.queueing;

/**
 * The state of a pod set's topology request whose placement waits for an admission check (Kueue's {@code
 * DelayedTopologyRequestState}). A pod set in a flavor with a topology gets no {@link TopologyAssignment} when its
 * quota is reserved if a {@link AdmissionCheck#PROVISIONING_REQUEST_CONTROLLER ProvisioningRequest} check applies to
 * that flavor: the nodes are provisioned first. Once every check is Ready the engine's next cycle places it (Kueue's
 * second scheduling pass) and only then is the workload admitted.
 */
public enum DelayedTopologyRequest {
  /** The topology assignment waits for the checks and the second pass (Kueue's {@code Pending}). */
  PENDING,
  /** The second pass has placed the pod set (Kueue's {@code Ready}). */
  READY
}
