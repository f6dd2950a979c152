package io.fleetkit.api.apps;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** The observed part of a replica set. */
public record ReplicaSetStatus(int replicas, int fullyLabeledReplicas, int readyReplicas, int availableReplicas,
    long observedGeneration, List<ReplicaSetCondition> conditions) {
  public static final ReplicaSetStatus EMPTY = new ReplicaSetStatus(0, 0, 0, 0, 0);

  public ReplicaSetStatus {
    conditions = List.copyOf(conditions);
  }

  /** A status without conditions. */
  public ReplicaSetStatus(int replicas, int fullyLabeledReplicas, int readyReplicas, int availableReplicas,
      long observedGeneration) {
    this(replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration, List.of());
  }

  /** The condition of that type, or {@code null}. */
  public @Nullable ReplicaSetCondition condition(String type) {
    for (int i = 0; i < conditions.size(); i++) { // by index: no iterator per lookup (read per pod event)
      ReplicaSetCondition c = conditions.get(i);
      if (c.type().equals(type)) {
        return c;
      }
    }
    return null;
  }

  /** This status with {@code cs} as its conditions. */
  public ReplicaSetStatus withConditions(List<ReplicaSetCondition> cs) {
    return new ReplicaSetStatus(replicas, fullyLabeledReplicas, readyReplicas, availableReplicas, observedGeneration,
        cs);
  }
}
