package io.fleetkit.api.scheduling;

import java.util.List;

/** Renders messages the way apimachinery's {@code field.Error} does. Package-private helper. */
final class FieldErrors {
  private FieldErrors() {}

  static String invalid(String path, String renderedValue, String detail) {
    return path + ": Invalid value: " + renderedValue + ": " + detail;
  }

  static String notSupported(String path, String value, List<String> supported) {
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

  static String quote(String s) {
    return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
  }

  static String quote(List<String> values) {
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
