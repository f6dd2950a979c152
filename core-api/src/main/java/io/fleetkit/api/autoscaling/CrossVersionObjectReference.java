package io.fleetkit.api.autoscaling;

import java.util.Objects;

/**
 * Names an object in the same namespace, e.g. the Deployment an autoscaler scales.
 *
 * @param apiVersion e.g. {@code apps/v1}; may be empty
 */
public record CrossVersionObjectReference(String apiVersion, String kind, String name) {
  public CrossVersionObjectReference {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
  }

  public static CrossVersionObjectReference of(String apiVersion, String kind, String name) {
    return new CrossVersionObjectReference(apiVersion, kind, name);
  }

  /** A reference to the {@code apps/v1} Deployment {@code name}. */
  public static CrossVersionObjectReference deployment(String name) {
    return new CrossVersionObjectReference("apps/v1", "Deployment", name);
  }

  /** {@code Kind/name}, as kubectl prints it. */
  @Override
  public String toString() {
    return kind + "/" + name;
  }
}
