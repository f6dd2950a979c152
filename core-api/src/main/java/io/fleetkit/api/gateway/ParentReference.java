package io.fleetkit.api.gateway;

import java.util.Objects;

/** The Gateway (listener) a route attaches to; namespace empty for the route's own. */
public record ParentReference(String name, String namespace, String sectionName) {
  public ParentReference {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(sectionName, "sectionName");
  }
}
