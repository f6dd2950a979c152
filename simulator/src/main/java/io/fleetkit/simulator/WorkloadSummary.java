package io.fleetkit.simulator;

import java.util.Objects;

/**
 * A Deployment's or StatefulSet's state at the end of a run.
 *
 * @param name {@code namespace/name}
 * @param replicas desired replicas ({@code spec.replicas})
 * @param ready pods that are Ready ({@code status.readyReplicas})
 */
public record WorkloadSummary(String name, int replicas, int ready) {
  public WorkloadSummary {
    Objects.requireNonNull(name, "name");
  }
}
