package io.fleetkit.api.core;

/** A pod's restart policy; Kubernetes defaults it to {@link #Always}. */
public enum RestartPolicy {
  Always,
  OnFailure,
  Never
}
