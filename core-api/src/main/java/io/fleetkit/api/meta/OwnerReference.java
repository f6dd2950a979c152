package io.fleetkit.api.meta;

import java.util.Objects;

/**
 * Points from a dependent to its owner, as {@code metadata.ownerReferences} in Kubernetes. {@code controller}
 * marks the single managing owner; cascading deletion follows these references.
 */
public record OwnerReference(String apiVersion, String kind, String name, String uid, boolean controller,
    boolean blockOwnerDeletion) {
  public OwnerReference {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }

  /** A controller reference to {@code owner}. */
  public static OwnerReference controllerOf(ApiObject<?> owner) {
    ObjectMeta m = owner.metadata();
    return new OwnerReference(owner.apiVersion(), owner.kind(), m.name(), m.uid(), true, true);
  }
}
