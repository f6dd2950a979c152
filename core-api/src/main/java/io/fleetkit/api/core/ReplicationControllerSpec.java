package io.fleetkit.api.core;

import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired part of a replication controller (core/v1 ReplicationControllerSpec): {@code replicas} pods matching
 * an equality-based {@code selector}, stamped from {@code template}. The template is {@code null} only in a spec that
 * is not yet validated: a {@link ReplicationController} requires it.
 */
public record ReplicationControllerSpec(int replicas, int minReadySeconds, Map<String, String> selector,
    @Nullable PodTemplateSpec template) {
  public ReplicationControllerSpec {
    selector = Map.copyOf(Objects.requireNonNull(selector, "selector"));
  }

  public ReplicationControllerSpec withReplicas(int n) {
    return new ReplicationControllerSpec(n, minReadySeconds, selector, template);
  }
}
