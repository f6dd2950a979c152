package io.fleetkit.api.core;

import java.util.List;

/**
 * The desired state of a {@link Namespace}: the finalizers that must empty it before it may be removed (Kubernetes
 * puts {@value Namespace#KUBERNETES_FINALIZER} there, meaning "delete all content first").
 */
public record NamespaceSpec(List<String> finalizers) {
  /** No finalizers. */
  public static final NamespaceSpec EMPTY = new NamespaceSpec(List.of());

  public NamespaceSpec {
    finalizers = List.copyOf(finalizers);
  }
}
