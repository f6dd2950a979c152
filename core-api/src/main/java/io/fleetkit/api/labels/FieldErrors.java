package io.fleetkit.api.labels;

import java.util.List;

/** Renders messages the way apimachinery's {@code field.Error} does. Package-private helper. */
final class FieldErrors {
  private FieldErrors() {}

  static String child(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  static String invalid(String path, String renderedValue, String detail) {
    return (path.isEmpty() ? "" : path + ": ") + "Invalid value: " + renderedValue + ": " + detail;
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
