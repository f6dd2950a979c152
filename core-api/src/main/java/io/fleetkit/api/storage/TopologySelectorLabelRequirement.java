package io.fleetkit.api.storage;

import java.util.List;
import java.util.Objects;

/** A node label that must hold one of {@code values}, e.g. {@code topology.kubernetes.io/zone in [a, b]}. */
public record TopologySelectorLabelRequirement(String key, List<String> values) {
  public TopologySelectorLabelRequirement {
    Objects.requireNonNull(key, "key");
    values = List.copyOf(values);
  }

  public static TopologySelectorLabelRequirement of(String key, String... values) {
    return new TopologySelectorLabelRequirement(key, List.of(values));
  }
}
