package io.fleetkit.api.core;

import java.util.List;

/** The observed part of a replication controller (core/v1 ReplicationControllerStatus). */
public record ReplicationControllerStatus(int replicas, int fullyLabeledReplicas, int readyReplicas,
    int availableReplicas, long observedGeneration, List<ReplicationControllerCondition> conditions) {
  public static final ReplicationControllerStatus EMPTY = new ReplicationControllerStatus(0, 0, 0, 0, 0, List.of());

  public ReplicationControllerStatus {
    conditions = List.copyOf(conditions);
  }
}
