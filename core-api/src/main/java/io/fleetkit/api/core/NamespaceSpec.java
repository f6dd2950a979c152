package io.fleetkit.api.core;

import java.util.List;

/**
 * The desired state of a {@link Namespace}: the finalizers that must empty it before it may be removed (Kubernetes'
 * {@code spec.finalizers}). The store adds {@value Namespace#KUBERNETES_FINALIZER} to every namespace it creates,
 * meaning "the namespace controller deletes all content first"; the controller takes it away through
 * {@link io.fleetkit.api.store.ObjectStore#finalizeNamespace(Namespace)} once the namespace is empty. These are not the
 * object's {@code metadata.finalizers}, which hold a namespace as they hold any object.
 */
public record NamespaceSpec(List<String> finalizers) {
  /** No finalizers. */
  public static final NamespaceSpec EMPTY = new NamespaceSpec(List.of());

  public NamespaceSpec {
    finalizers = List.copyOf(finalizers);
  }
}
