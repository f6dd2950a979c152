package io.fleetkit.store.etcd.internal;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * The stored JSON of an object walked beside the object itself, so that each JSON property is known as a record's
 * component (with its {@code @Nullable}), a map's entry or a value's text form. Paths are lists of property names and
 * indexes, written as the codec's messages write them ({@code spec.containers[0].name}, {@code labels[app]}).
 */
final class StoredJson {
  static final JsonMapper JSON = JsonMapper.builder().build();

  private StoredJson() {}

  /** A property of a record inside the stored object. */
  record Property(List<Object> path, String text, RecordComponent component, @Nullable Object value) {
    boolean nullable() {
      return component.getAnnotatedType().isAnnotationPresent(Nullable.class);
    }
  }

  /** A record inside the stored object ({@code path} empty: the object itself). */
  record RecordAt(List<Object> path, String text) {}

  /** Every property of every record in {@code object}, depth first. */
  static List<Property> properties(Object object) {
    List<Property> out = new ArrayList<>();
    walk(object, new ArrayList<>(), "", out, new ArrayList<>());
    return out;
  }

  /** Every record in {@code object}, itself first. */
  static List<RecordAt> records(Object object) {
    List<RecordAt> out = new ArrayList<>();
    walk(object, new ArrayList<>(), "", new ArrayList<>(), out);
    return out;
  }

  private static void walk(@Nullable Object o, List<Object> path, String text, List<Property> props,
      List<RecordAt> records) {
    if (o == null || o instanceof Quantity || o instanceof ResourceList || o instanceof Bytes) {
      return;
    }
    if (o.getClass().isRecord()) {
      records.add(new RecordAt(List.copyOf(path), text));
      for (RecordComponent c : o.getClass().getRecordComponents()) {
        Object v;
        try {
          c.getAccessor().setAccessible(true);
          v = c.getAccessor().invoke(o);
        } catch (ReflectiveOperationException e) {
          throw new IllegalStateException(e);
        }
        List<Object> p = new ArrayList<>(path);
        p.add(c.getName());
        String t = text.isEmpty() ? c.getName() : text + "." + c.getName();
        props.add(new Property(List.copyOf(p), t, c, v));
        walk(v, p, t, props, records);
      }
    } else if (o instanceof List<?> l) {
      for (int i = 0; i < l.size(); i++) {
        List<Object> p = new ArrayList<>(path);
        p.add(i);
        walk(l.get(i), p, text + "[" + i + "]", props, records);
      }
    } else if (o instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        List<Object> p = new ArrayList<>(path);
        p.add(String.valueOf(e.getKey()));
        walk(e.getValue(), p, text + "[" + e.getKey() + "]", props, records);
      }
    }
  }

  /** The node at {@code path} in {@code root}, or {@code null}. */
  static @Nullable JsonNode at(JsonNode root, List<Object> path) {
    JsonNode n = root;
    for (Object s : path) {
      if (n == null) {
        return null;
      }
      n = s instanceof Integer i ? n.get(i) : n.get((String) s);
    }
    return n;
  }

  /** A copy of {@code root} with the property at {@code path} removed ({@code replacement} null) or replaced. */
  static JsonNode with(JsonNode root, List<Object> path, @Nullable JsonNode replacement) {
    JsonNode copy = root.deepCopy();
    JsonNode parent = at(copy, path.subList(0, path.size() - 1));
    Object last = path.get(path.size() - 1);
    if (parent instanceof ObjectNode o) {
      if (replacement == null) {
        o.remove((String) last);
      } else {
        o.set((String) last, replacement);
      }
    } else if (parent instanceof ArrayNode a && replacement != null) {
      a.set((Integer) last, replacement);
    } else {
      throw new IllegalArgumentException("no property at " + path + " in " + root);
    }
    return copy;
  }
}
