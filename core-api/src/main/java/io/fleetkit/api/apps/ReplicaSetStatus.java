package io.fleetkit.api.apps;

/** The observed part of a replica set. */
public record ReplicaSetStatus(int replicas, int fullyLabeledReplicas, int readyReplicas, int availableReplicas,
    long observedGeneration) {
  public static final ReplicaSetStatus EMPTY = new ReplicaSetStatus(0, 0, 0, 0, 0);
}
