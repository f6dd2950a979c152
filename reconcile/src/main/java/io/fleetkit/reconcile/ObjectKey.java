package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import java.util.Objects;

/**
 * Names one object of a known kind: its namespace ({@code ""} for cluster-scoped kinds) and name. The item type
 * of controller work queues, so that a key, not a stale object, is what gets queued.
 *
 * @param namespace the namespace, or {@code ""}
 * @param name the name, non-empty
 */
public record ObjectKey(String namespace, String name) implements Comparable<ObjectKey> {
  public ObjectKey {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("ObjectKey: name must not be empty (namespace \"" + namespace + "\")");
    }
  }

  /** The key of {@code object}. */
  public static ObjectKey of(ApiObject<?> object) {
    return new ObjectKey(object.metadata().namespace(), object.metadata().name());
  }

  /** A cluster-scoped key. */
  public static ObjectKey of(String name) {
    return new ObjectKey("", name);
  }

  /** A namespaced key. */
  public static ObjectKey of(String namespace, String name) {
    return new ObjectKey(namespace, name);
  }

  /**
   * Parses {@code namespace/name} or {@code name}.
   *
   * @throws IllegalArgumentException if {@code key} is empty or has more than one {@code /}
   */
  public static ObjectKey parse(String key) {
    int slash = key.indexOf('/');
    if (slash < 0) {
      return new ObjectKey("", key);
    }
    if (key.indexOf('/', slash + 1) >= 0) {
      throw new IllegalArgumentException("ObjectKey.parse: \"" + key + "\" must be namespace/name or name");
    }
    return new ObjectKey(key.substring(0, slash), key.substring(slash + 1));
  }

  /**
   * Written out rather than generated: keys are compared in every hash lookup of the controllers' caches and queues,
   * and the record's generated method, which goes through method handles, showed in profiles. Names are compared first,
   * as keys of one namespace differ by name.
   */
  @Override
  public boolean equals(Object o) {
    return this == o || o instanceof ObjectKey k && name.equals(k.name) && namespace.equals(k.namespace);
  }

  /** The record's own formula ({@code 31 * namespace.hashCode() + name.hashCode()}), so iteration orders stay. */
  @Override
  public int hashCode() {
    return 31 * namespace.hashCode() + name.hashCode();
  }

  @Override
  public int compareTo(ObjectKey o) {
    int c = namespace.compareTo(o.namespace);
    return c != 0 ? c : name.compareTo(o.name);
  }

  /** {@code namespace/name}, or {@code name} for cluster-scoped keys: the same as {@code ObjectMeta.key()}. */
  @Override
  public String toString() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }
}
