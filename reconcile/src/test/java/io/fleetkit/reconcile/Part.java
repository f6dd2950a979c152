package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.Objects;

/** A test-only namespaced kind owned by Gadgets in the tests. */
record Part(ObjectMeta metadata, long size, String phase) implements ApiObject<Part> {
  Part {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(phase, "phase");
  }

  static Part of(String namespace, String name, long size) {
    return new Part(ObjectMeta.of(namespace, name), size, "");
  }

  static Part ownedBy(String namespace, String name, ApiObject<?> owner) {
    return new Part(ObjectMeta.of(namespace, name).toBuilder().ownerReference(OwnerReference.controllerOf(owner))
        .build(), 0, "");
  }

  @Override
  public String apiVersion() {
    return "test.fleetkit.io/v1";
  }

  @Override
  public String kind() {
    return "Part";
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Part withMetadata(ObjectMeta m) {
    return new Part(m, size, phase);
  }

  @Override
  public Object spec() {
    return size;
  }

  @Override
  public Object status() {
    return phase;
  }

  @Override
  public Part withStatusOf(Part other) {
    return new Part(metadata, size, other.phase);
  }

  Part withSize(long newSize) {
    return new Part(metadata, newSize, phase);
  }

  Part withPhase(String newPhase) {
    return new Part(metadata, size, newPhase);
  }

  Part withLabel(String key, String value) {
    return new Part(metadata.toBuilder().label(key, value).build(), size, phase);
  }
}
