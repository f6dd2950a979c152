package io.fleetkit.api.internal;

import java.util.List;

/**
 * Renders messages the way apimachinery's {@code field.Error} does, for the checks (label requirements, node
 * selector terms) whose errors are whole strings rather than {@link io.fleetkit.api.Violation}s. Stateless.
 */
public final class FieldErrors {
  private FieldErrors() {}

  /** {@code path.name}, or {@code name} when {@code path} is empty. */
  public static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** {@code path: Invalid value: rendered: detail} ({@code path: } left out when {@code path} is empty). */
  public static String invalid(String path, String renderedValue, String detail) {
    return (path.isEmpty() ? "" : path + ": ") + "Invalid value: " + renderedValue + ": " + detail;
  }

  /** {@code path: Unsupported value: "v": supported values: "a", "b"}. */
  public static String notSupported(String path, String value, List<String> supported) {
    StringBuilder sb = new StringBuilder(path).append(": Unsupported value: ").append(quote(value))
        .append(": supported values: ");
    for (int i = 0; i < supported.size(); i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append(quote(supported.get(i)));
    }
    return sb.toString();
  }

  /** A Go-quoted string. */
  public static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  /** A JSON-like list of Go-quoted strings: {@code ["a","b"]}. */
  public static String quote(List<String> values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(quote(values.get(i)));
    }
    return sb.append(']').toString();
  }
}
