package io.fleetkit.api.gateway;

import java.util.Objects;

/** A header condition: the name matches case-insensitively. */
public record HTTPHeaderMatch(ValueMatchType type, String name, String value) {
  public HTTPHeaderMatch {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }

  public static HTTPHeaderMatch exact(String name, String value) {
    return new HTTPHeaderMatch(ValueMatchType.Exact, name, value);
  }
}
