package io.fleetkit.adapter.kubernetes.yaml.internal;

import com.fasterxml.jackson.annotation.JsonProperty;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Finds the fields of a decoded fabric8 object that its Kubernetes schema does not have: fabric8 keeps them in each
 * model object's {@code additionalProperties} instead of failing, which would drop a misspelled {@code resurces}
 * without a word. Each is reported with its path and, when a known field of the same object is within two edits,
 * that field as a suggestion. The walk follows the fields fabric8 maps with {@code @JsonProperty}; classes are
 * introspected once. Thread-safe.
 */
final class UnknownFields {
  private static final String MODEL_PACKAGE = "io.fabric8.kubernetes.api.model";
  private static final String ADDITIONAL = "additionalProperties";

  /** The JSON-mapped fields of a model class, by JSON name, and its additionalProperties field if any. */
  private record Shape(Map<String, Field> properties, @Nullable Field additional) {}

  private static final ClassValue<Shape> SHAPES = new ClassValue<>() {
    @Override
    protected Shape computeValue(Class<?> type) {
      Map<String, Field> props = new LinkedHashMap<>();
      Field additional = null;
      for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
        for (Field f : c.getDeclaredFields()) {
          if (Modifier.isStatic(f.getModifiers())) {
            continue;
          }
          JsonProperty jp = f.getAnnotation(JsonProperty.class);
          if (jp != null) {
            f.setAccessible(true);
            props.putIfAbsent(jp.value().isEmpty() ? f.getName() : jp.value(), f);
          } else if (f.getName().equals(ADDITIONAL) && Map.class.isAssignableFrom(f.getType())) {
            f.setAccessible(true);
            additional = f;
          }
        }
      }
      return new Shape(props, additional);
    }
  };

  /** An unknown field: its path and the closest known field name, if one is close. */
  record Unknown(String path, @Nullable String suggestion) {}

  private UnknownFields() {}

  /**
   * The unknown fields of {@code model} (a fabric8 object), skipping those whose path is in {@code allowed} (the
   * extension fields a converter reads, the spec and status of kinds fabric8 models generically).
   */
  static List<Unknown> find(Object model, Set<String> allowed) {
    List<Unknown> out = new ArrayList<>();
    walk(model, "", out, allowed);
    return out;
  }

  private static void walk(@Nullable Object value, String path, List<Unknown> out, Set<String> allowed) {
    if (value == null) {
      return;
    }
    if (value instanceof Collection<?> list) {
      int i = 0;
      for (Object e : list) {
        walk(e, path + "[" + i++ + "]", out, allowed);
      }
      return;
    }
    if (value instanceof Map<?, ?> map) {
      for (Map.Entry<?, ?> e : map.entrySet()) {
        walk(e.getValue(), join(path, String.valueOf(e.getKey())), out, allowed);
      }
      return;
    }
    if (!value.getClass().getName().startsWith(MODEL_PACKAGE)) {
      return; // strings, numbers, untyped values
    }
    Shape shape = SHAPES.get(value.getClass());
    if (shape.additional() != null) {
      Map<?, ?> extra = (Map<?, ?>) get(shape.additional(), value);
      if (extra != null) {
        for (Object key : extra.keySet()) {
          String name = String.valueOf(key);
          if (!allowed.contains(join(path, name))) {
            out.add(new Unknown(join(path, name), closest(name, shape.properties().keySet())));
          }
        }
      }
    }
    for (Map.Entry<String, Field> p : shape.properties().entrySet()) {
      walk(get(p.getValue(), value), join(path, p.getKey()), out, allowed);
    }
  }

  private static @Nullable Object get(Field f, Object target) {
    try {
      return f.get(target);
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("cannot read " + f + " of the fabric8 model", e);
    }
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  /** The known name within two edits of {@code name} (the nearest, the first on ties), or {@code null}. */
  static @Nullable String closest(String name, Collection<String> known) {
    String best = null;
    int bestDistance = 3;
    for (String k : known) {
      int d = distance(name.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT), bestDistance);
      if (d < bestDistance) {
        best = k;
        bestDistance = d;
      }
    }
    return best;
  }

  /** Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped at {@code cap}. */
  static int distance(String a, String b, int cap) {
    if (Math.abs(a.length() - b.length()) >= cap) {
      return cap;
    }
    int[][] d = new int[a.length() + 1][b.length() + 1];
    for (int i = 0; i <= a.length(); i++) {
      d[i][0] = i;
    }
    for (int j = 0; j <= b.length(); j++) {
      d[0][j] = j;
    }
    for (int i = 1; i <= a.length(); i++) {
      for (int j = 1; j <= b.length(); j++) {
        int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
        d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
          d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
        }
      }
    }
    return Math.min(cap, d[a.length()][b.length()]);
  }
}
