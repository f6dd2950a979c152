package io.fleetkit.api.store;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;

/** A test-only namespaced kind: spec is {@code size}, status is {@code phase}. */
record Widget(ObjectMeta metadata, long size, String phase) implements ApiObject<Widget> {
  Widget {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(phase, "phase");
  }

  static Widget of(String namespace, String name, long size) {
    return new Widget(ObjectMeta.of(namespace, name), size, "");
  }

  @Override
  public String apiVersion() {
    return "test.fleetkit.io/v1";
  }

  @Override
  public String kind() {
    return "Widget";
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public Widget withMetadata(ObjectMeta m) {
    return new Widget(m, size, phase);
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
  public Widget withStatusOf(Widget other) {
    return new Widget(metadata, size, other.phase);
  }

  Widget withSize(long newSize) {
    return new Widget(metadata, newSize, phase);
  }

  Widget withPhase(String newPhase) {
    return new Widget(metadata, size, newPhase);
  }
}
