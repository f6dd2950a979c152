package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.util.Objects;

/** A test-only namespaced kind: spec is {@code size}, status is {@code phase}. */
record Gadget(ObjectMeta metadata, long size, String phase) implements ApiObject<Gadget> {
  Gadget {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(phase, "phase");
  }

  static Gadget of(String namespace, String name, long size) {
    return new Gadget(ObjectMeta.of(namespace, name), size, "");
  }

  static Gadget ownedBy(String namespace, String name, ApiObject<?> owner) {
    return new Gadget(ObjectMeta.of(namespace, name).toBuilder().ownerReference(OwnerReference.controllerOf(owner))
        .build(), 0, "");
  }

  @Override
  public String apiVersion() {
    return "test.fleetkit.io/v1";
  }

  @Override
  public String kind() {
    return "Gadget";
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Gadget withMetadata(ObjectMeta m) {
    return new Gadget(m, size, phase);
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
  public Gadget withStatusOf(Gadget other) {
    return new Gadget(metadata, size, other.phase);
  }

  Gadget withSize(long newSize) {
    return new Gadget(metadata, newSize, phase);
  }

  Gadget withPhase(String newPhase) {
    return new Gadget(metadata, size, newPhase);
  }

  Gadget withLabel(String key, String value) {
    return new Gadget(metadata.toBuilder().label(key, value).build(), size, phase);
  }
}
