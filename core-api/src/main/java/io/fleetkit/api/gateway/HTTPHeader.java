package io.fleetkit.api.gateway;

import java.util.Objects;

/**
 * A header name and value a header filter sets or adds.
 *
 * @param name an HTTP header name ({@code [A-Za-z0-9!#$%&'*+-.^_`|~]}, 1..256 characters); names are
 *     case-insensitive
 * @param value 1..4096 characters
 */
public record HTTPHeader(String name, String value) {
  public HTTPHeader {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
  }

  public static HTTPHeader of(String name, String value) {
    return new HTTPHeader(name, value);
  }
}
