package io.fleetkit.api.gateway;

import java.util.Objects;

/** A query parameter condition: the name matches exactly (case-sensitive). */
public record HTTPQueryParamMatch(ValueMatchType type, String name, String value) {
  public HTTPQueryParamMatch {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }

  public static HTTPQueryParamMatch exact(String name, String value) {
    return new HTTPQueryParamMatch(ValueMatchType.Exact, name, value);
  }
}
