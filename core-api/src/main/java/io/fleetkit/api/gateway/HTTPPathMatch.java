package io.fleetkit.api.gateway;

import java.util.Objects;

/** The path condition of a match. */
public record HTTPPathMatch(PathMatchType type, String value) {
  /** The API's default: every path. */
  public static final HTTPPathMatch EVERYTHING = new HTTPPathMatch(PathMatchType.PathPrefix, "/");

  public HTTPPathMatch {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(value, "value");
  }
}
