package io.fleetkit.api.store;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import org.jspecify.annotations.Nullable;

/** A test-only cluster-scoped kind without status. */
record Rack(ObjectMeta metadata, String zone) implements ApiObject<Rack> {
  static Rack of(String name, String zone) {
    return new Rack(ObjectMeta.of(name), zone);
  }

  @Override
  public String apiVersion() {
    return "test.fleetkit.io/v1";
  }

  @Override
  public String kind() {
    return "Rack";
  }

  @Override
  public boolean namespaced() {
    return false;
  }

  @Override
  public Rack withMetadata(ObjectMeta m) {
    return new Rack(m, zone);
  }

  @Override
  public Object spec() {
    return zone;
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public Rack withStatusOf(Rack other) {
    return this;
  }
}
