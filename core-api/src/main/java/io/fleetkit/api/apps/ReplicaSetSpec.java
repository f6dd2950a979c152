package io.fleetkit.api.apps;

import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import java.util.Objects;

/** The desired part of a replica set. */
public record ReplicaSetSpec(int replicas, LabelSelector selector, PodTemplateSpec template, int minReadySeconds) {
  public ReplicaSetSpec {
    Objects.requireNonNull(selector, "selector");
    Objects.requireNonNull(template, "template");
  }

  public ReplicaSetSpec withReplicas(int n) {
    return new ReplicaSetSpec(n, selector, template, minReadySeconds);
  }
}
