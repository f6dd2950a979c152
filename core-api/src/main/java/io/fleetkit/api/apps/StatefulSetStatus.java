package io.fleetkit.api.apps;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The observed part of a StatefulSet; revisions are empty until known. */
public record StatefulSetStatus(long observedGeneration, int replicas, int readyReplicas, int currentReplicas,
    int updatedReplicas, int availableReplicas, String currentRevision, String updateRevision,
    @Nullable Integer collisionCount) {
  public static final StatefulSetStatus EMPTY = new StatefulSetStatus(0, 0, 0, 0, 0, 0, "", "", null);

  public StatefulSetStatus {
    Objects.requireNonNull(currentRevision, "currentRevision");
    Objects.requireNonNull(updateRevision, "updateRevision");
  }
}
