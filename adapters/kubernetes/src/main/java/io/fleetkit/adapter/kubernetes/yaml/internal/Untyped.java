package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.text.GoFloats;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Reads fields of untyped maps (fabric8's {@code GenericKubernetesResource} and {@code additionalProperties}), as
 * Jackson binds YAML: maps, lists, strings, numbers and booleans. A value of the wrong type is reported and read as
 * absent.
 */
public final class Untyped {
  private Untyped() {}

  /** The map at {@code key}, empty when absent; a non-map is reported. */
  public static Map<String, Object> map(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    return asMap(m.get(key), path, ctx);
  }

  @SuppressWarnings("unchecked")
  public static Map<String, Object> asMap(@Nullable Object v, String path, DocumentContext ctx) {
    if (v == null) {
      return Map.of();
    }
    if (v instanceof Map<?, ?> mm) {
      return (Map<String, Object>) mm;
    }
    ctx.error(path, "must be a map, not " + describe(v), scalar(v));
    return Map.of();
  }

  /** The list at {@code key}, empty when absent; a non-list is reported. */
  public static List<Object> list(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return List.of();
    }
    if (v instanceof List<?> l) {
      return new ArrayList<>(l);
    }
    ctx.error(path, "must be a list, not " + describe(v), scalar(v));
    return List.of();
  }

  /** Reads one entry of a list of maps; {@code null} when it was reported as bad. */
  @FunctionalInterface
  public interface EntryReader<T> {
    @Nullable T read(Map<String, Object> entry, String path, DocumentContext ctx);
  }

  /**
   * The list of maps at {@code key}, each read by {@code reader} at its path ({@code key[i]}); entries reported as
   * bad are left out, a non-list and non-map entries are reported.
   */
  public static <T> List<T> entries(Map<String, Object> m, String key, String path, DocumentContext ctx,
      EntryReader<T> reader) {
    List<Object> raw = list(m, key, path, ctx);
    List<T> out = new ArrayList<>(raw.size());
    for (int i = 0; i < raw.size(); i++) {
      String p = path + "[" + i + "]";
      T t = reader.read(asMap(raw.get(i), p, ctx), p, ctx);
      if (t != null) {
        out.add(t);
      }
    }
    return out;
  }

  /** The string at {@code key} ({@code dflt} when absent); numbers and booleans are taken as their text. */
  public static String string(Map<String, Object> m, String key, String dflt, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return dflt;
    }
    if (v instanceof String || v instanceof Number || v instanceof Boolean) {
      return String.valueOf(v);
    }
    ctx.error(path, "must be a string, not " + describe(v), null);
    return dflt;
  }

  /** The integer at {@code key}, {@code null} when absent or (reported) not an integer. */
  public static @Nullable Long integer(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (v instanceof Integer || v instanceof Long || v instanceof Short) {
      return ((Number) v).longValue();
    }
    if (v instanceof BigInteger b && b.bitLength() < 64) {
      return b.longValue();
    }
    ctx.error(path, "must be an integer, not " + describe(v), scalar(v));
    return null;
  }

  /** Like {@link #integer} but within the int range. */
  public static @Nullable Integer int32(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Long l = integer(m, key, path, ctx);
    if (l == null) {
      return null;
    }
    if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
      ctx.error(path, "must fit in 32 bits", l);
      return null;
    }
    return l.intValue();
  }

  /** A floating point number, {@code null} when absent or (reported) not a number. */
  public static @Nullable Double number(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    if (v instanceof String s) {
      try {
        return GoFloats.parseFloat(s); // Go's float text: no spaces, no d/f suffix
      } catch (NumberFormatException e) {
        // reported below
      }
    }
    ctx.error(path, "must be a number, not " + describe(v), scalar(v));
    return null;
  }

  public static @Nullable Boolean bool(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    ctx.error(path, "must be a boolean (true or false), not " + describe(v), scalar(v));
    return null;
  }

  /** A string-to-string map; non-string values are reported. */
  public static Map<String, String> stringMap(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Map<String, Object> raw = map(m, key, path, ctx);
    Map<String, String> out = new LinkedHashMap<>();
    raw.forEach((k, v) -> {
      if (v instanceof String || v instanceof Number || v instanceof Boolean) {
        out.put(k, String.valueOf(v));
      } else {
        ctx.error(path + "." + k, "must be a string, not " + describe(v), null);
      }
    });
    return out;
  }

  public static List<String> stringList(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    List<String> out = new ArrayList<>();
    List<Object> raw = list(m, key, path, ctx);
    for (int i = 0; i < raw.size(); i++) {
      Object v = raw.get(i);
      if (v instanceof String || v instanceof Number || v instanceof Boolean) {
        out.add(String.valueOf(v));
      } else {
        ctx.error(path + "[" + i + "]", "must be a string, not " + describe(v), null);
      }
    }
    return out;
  }

  /** A resource list (map of quantities), each non-negative. */
  public static ResourceList resources(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Map<String, Object> raw = map(m, key, path, ctx);
    Map<String, Quantity> out = new LinkedHashMap<>();
    raw.forEach((name, v) -> {
      String p = path + "." + name;
      if (v instanceof String || v instanceof Number) {
        Quantity q = Values.quantity(v instanceof BigDecimal d ? d.toPlainString() : String.valueOf(v), p, ctx);
        if (q != null) {
          out.put(name, q);
        }
      } else {
        ctx.error(p, "must be a quantity such as 500m, 2 or 1Gi, not " + describe(v), null);
      }
    });
    return ResourceList.of(out);
  }

  /** A resource list as an untyped map of quantity strings, sorted by name; {@code null} when empty. */
  public static @Nullable Map<String, Object> resources(ResourceList r) {
    if (r.isEmpty()) {
      return null;
    }
    Map<String, Object> out = new java.util.TreeMap<>();
    r.asMap().forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }

  /** Reports each key of {@code m} that is not one of {@code fields}, naming the fields there are. */
  public static void known(Map<String, Object> m, Set<String> fields, String path, DocumentContext ctx) {
    for (String k : m.keySet()) {
      if (!fields.contains(k)) {
        ctx.error(path + "." + k, "is not a field of " + path + " (fields: " + new TreeSet<>(fields) + ")", null);
      }
    }
  }

  /** Puts {@code value} unless it is {@code null}, empty or an empty collection. */
  public static void put(Map<String, Object> m, String key, @Nullable Object value) {
    if (value == null || (value instanceof String s && s.isEmpty())
        || (value instanceof List<?> l && l.isEmpty()) || (value instanceof Map<?, ?> mm && mm.isEmpty())) {
      return;
    }
    m.put(key, value);
  }

  static String describe(Object v) {
    if (v instanceof Map) {
      return "a map";
    }
    if (v instanceof List) {
      return "a list";
    }
    if (v instanceof String) {
      return "a string";
    }
    if (v instanceof Boolean) {
      return "a boolean";
    }
    if (v instanceof Number) {
      return "a number";
    }
    return v.getClass().getSimpleName();
  }

  private static @Nullable String scalar(Object v) {
    return v instanceof Map || v instanceof List ? null : String.valueOf(v);
  }
}
