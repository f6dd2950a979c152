package io.fleetkit.api.autoscaling;

import java.util.Objects;

/**
 * Whose usage history a {@link VerticalPodAutoscalerCheckpoint} keeps.
 *
 * @param vpaObjectName the VerticalPodAutoscaler, in the checkpoint's namespace
 * @param containerName the container name under that VPA
 */
public record VerticalPodAutoscalerCheckpointSpec(String vpaObjectName, String containerName) {
  public VerticalPodAutoscalerCheckpointSpec {
    Objects.requireNonNull(vpaObjectName, "vpaObjectName");
    Objects.requireNonNull(containerName, "containerName");
  }
}
