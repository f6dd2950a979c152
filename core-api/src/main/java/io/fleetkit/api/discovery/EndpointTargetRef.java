package io.fleetkit.api.discovery;

import java.util.Objects;

/** What an endpoint stands for ({@code targetRef}), usually a Pod. */
public record EndpointTargetRef(String kind, String namespace, String name, String uid) {
  public EndpointTargetRef {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(uid, "uid");
  }
}
