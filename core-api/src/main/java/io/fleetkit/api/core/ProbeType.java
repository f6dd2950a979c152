package io.fleetkit.api.core;

/** The three probes a container may declare; the kubelet runs one worker per container and type. */
public enum ProbeType {
  /** {@code livenessProbe}: failing kills and restarts the container. */
  Liveness("livenessProbe"),
  /** {@code readinessProbe}: decides the container's (and so the pod's) Ready condition. */
  Readiness("readinessProbe"),
  /** {@code startupProbe}: holds back the other two until it succeeds; failing kills the container. */
  Startup("startupProbe");

  private final String fieldName;

  ProbeType(String fieldName) {
    this.fieldName = fieldName;
  }

  /** The container field holding this probe, e.g. {@code livenessProbe}. */
  public String fieldName() {
    return fieldName;
  }
}
