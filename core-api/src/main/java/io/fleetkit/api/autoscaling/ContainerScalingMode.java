package io.fleetkit.api.autoscaling;

/** Whether a VPA controls a container, spelled as in {@code autoscaling.k8s.io/v1}. Defaults to Auto. */
public enum ContainerScalingMode {
  Auto,
  Off
}
