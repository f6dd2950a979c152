package io.fleetkit.api.rollouts;

import java.util.Map;

/**
 * Ephemeral pod metadata (Argo Rollouts' {@code PodTemplateMetadata}): labels and annotations the rollout controller
 * puts on the pods of a ReplicaSet while it plays a role ({@code canaryMetadata}/{@code stableMetadata} of a canary,
 * {@code previewMetadata}/{@code activeMetadata} of a blue-green) and moves when the roles change. Immutable.
 */
public record PodTemplateMetadata(Map<String, String> labels, Map<String, String> annotations) {
  public PodTemplateMetadata {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
  }

  /** Labels only. */
  public static PodTemplateMetadata ofLabels(Map<String, String> labels) {
    return new PodTemplateMetadata(labels, Map.of());
  }
}
