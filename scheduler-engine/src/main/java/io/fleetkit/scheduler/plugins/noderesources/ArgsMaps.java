package io.fleetkit.scheduler.plugins.noderesources;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/** Reads plugin arguments given as nested maps and lists (as parsed from YAML or JSON), with precise messages. */
final class ArgsMaps {
  private ArgsMaps() {}

  static void checkKeys(String plugin, String path, Map<String, ?> map, Set<String> allowed) {
    for (String k : map.keySet()) {
      if (!allowed.contains(k)) {
        throw new IllegalArgumentException(plugin + " args: " + path + k + " is not a known field (known: "
            + String.join(", ", allowed.stream().sorted().toList()) + ")");
      }
    }
  }

  @SuppressWarnings("unchecked")
  static @Nullable Map<String, Object> map(String plugin, String path, @Nullable Object value) {
    if (value == null) {
      return null;
    }
    if (!(value instanceof Map<?, ?> m)) {
      throw new IllegalArgumentException(plugin + " args: " + path + " must be a map, not " + describe(value));
    }
    for (Object k : m.keySet()) {
      if (!(k instanceof String)) {
        throw new IllegalArgumentException(plugin + " args: " + path + " keys must be strings, not " + describe(k));
      }
    }
    return (Map<String, Object>) m;
  }

  static List<?> list(String plugin, String path, Object value) {
    if (!(value instanceof List<?> l)) {
      throw new IllegalArgumentException(plugin + " args: " + path + " must be a list, not " + describe(value));
    }
    return l;
  }

  static String string(String plugin, String path, @Nullable Object value) {
    if (!(value instanceof String s) || s.isEmpty()) {
      throw new IllegalArgumentException(
          plugin + " args: " + path + " must be a non-empty string, not " + describe(value));
    }
    return s;
  }

  static List<String> strings(String plugin, String path, @Nullable Object value) {
    if (value == null) {
      return List.of();
    }
    List<?> l = list(plugin, path, value);
    List<String> out = new ArrayList<>(l.size());
    for (int i = 0; i < l.size(); i++) {
      out.add(string(plugin, path + "[" + i + "]", l.get(i)));
    }
    return out;
  }

  /** An integral number (Integer, Long, or a Double/BigDecimal without fraction). */
  static long integer(String plugin, String path, @Nullable Object value) {
    if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
      return ((Number) value).longValue();
    }
    if (value instanceof Number n) {
      double d = n.doubleValue();
      if (d == Math.rint(d) && Math.abs(d) < 1e15) {
        return (long) d;
      }
    }
    throw new IllegalArgumentException(plugin + " args: " + path + " must be an integer, not " + describe(value));
  }

  static String describe(@Nullable Object value) {
    if (value == null) {
      return "null";
    }
    String s = value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    return s + " (" + value.getClass().getSimpleName() + ")";
  }
}
