package io.fleetkit.api.core;

import java.util.Objects;

/** A literal environment variable of a container ({@code valueFrom} is not modelled). */
public record EnvVar(String name, String value) {
  public EnvVar {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }
}
