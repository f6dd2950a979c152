package io.fleetkit.api;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One broken rule: which object, which field, which rule, and the offending value.
 *
 * @param object the object, as {@code Kind namespace/name} or {@code Kind name} (may be empty when unknown)
 * @param field the field path, e.g. {@code spec.containers[1].resources.requests.cpu}
 * @param rule what must hold, e.g. {@code must not be negative}
 * @param value the offending value as written, or {@code null} when the field is missing
 */
public record Violation(String object, String field, String rule, @Nullable String value) {
  public Violation {
    Objects.requireNonNull(object, "object");
    Objects.requireNonNull(field, "field");
    Objects.requireNonNull(rule, "rule");
  }

  /** Renders as {@code pod default/web-0: spec.containers[1].resources.requests.cpu "-1" must not be negative}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    if (!object.isEmpty()) {
      sb.append(object).append(": ");
    }
    sb.append(field);
    if (value != null) {
      sb.append(" \"").append(value).append('"');
    }
    return sb.append(' ').append(rule).toString();
  }
}
