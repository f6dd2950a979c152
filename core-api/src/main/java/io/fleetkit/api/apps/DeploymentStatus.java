package io.fleetkit.api.apps;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** The observed part of a deployment. */
public record DeploymentStatus(long observedGeneration, int replicas, int updatedReplicas, int readyReplicas,
    int availableReplicas, int unavailableReplicas, List<DeploymentCondition> conditions,
    @Nullable Integer collisionCount) {
  public static final DeploymentStatus EMPTY = new DeploymentStatus(0, 0, 0, 0, 0, 0, List.of(), null);

  public DeploymentStatus {
    conditions = List.copyOf(conditions);
  }

  /** The condition of that type, or {@code null}. */
  public @Nullable DeploymentCondition condition(String type) {
    for (int i = 0; i < conditions.size(); i++) { // by index: no iterator per lookup (read per pod event)
      DeploymentCondition c = conditions.get(i);
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }
}
