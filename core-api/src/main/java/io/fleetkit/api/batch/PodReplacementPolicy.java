package io.fleetkit.api.batch;

/** When a Job creates the replacement of a pod that stopped being active (batch/v1 {@code PodReplacementPolicy}). */
public enum PodReplacementPolicy {
  /** As soon as the pod is terminating (being deleted) or failed; Kubernetes' default without a pod failure policy. */
  TerminatingOrFailed,
  /** Only once the pod is terminal (phase Failed); required with a pod failure policy. */
  Failed
}
