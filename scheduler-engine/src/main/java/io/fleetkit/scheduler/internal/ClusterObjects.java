package io.fleetkit.scheduler.internal;

import io.fleetkit.api.meta.ApiObject;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Cluster objects other than nodes and pods (priority classes, disruption budgets, claims...), by kind and key, for
 * {@code FrameworkHandle.list}. Written under the scheduler's lock; {@link #list} returns immutable copies cached until
 * an object of the kind changes (a list of one kind outlives changes to others), so plugins may call it from any
 * thread of a cycle.
 */
final class ClusterObjects {
  private final Map<Class<?>, LinkedHashMap<Object, Object>> byKind = new HashMap<>();
  private final Map<Class<?>, List<?>> lists = new java.util.concurrent.ConcurrentHashMap<>();

  /** Adds or replaces {@code o}; returns the object it replaced, or {@code null}. */
  @Nullable Object put(Object o) {
    Object before = byKind.computeIfAbsent(o.getClass(), k -> new LinkedHashMap<>()).put(keyOf(o), o);
    forgetLists(o.getClass());
    return before;
  }

  boolean remove(Object o) {
    LinkedHashMap<Object, Object> m = byKind.get(o.getClass());
    if (m == null || m.remove(keyOf(o)) == null) {
      return false;
    }
    forgetLists(o.getClass());
    return true;
  }

  /** Drops the cached lists that hold objects of class {@code changed}: those of its kind and of its supertypes. */
  private void forgetLists(Class<?> changed) {
    if (!lists.isEmpty()) {
      lists.keySet().removeIf(kind -> kind.isAssignableFrom(changed));
    }
  }

  @SuppressWarnings("unchecked")
  <T> List<T> list(Class<T> kind) {
    List<?> cached = lists.get(kind);
    if (cached != null) {
      return (List<T>) cached;
    }
    List<T> out = new ArrayList<>();
    for (Map.Entry<Class<?>, LinkedHashMap<Object, Object>> e : byKind.entrySet()) {
      if (kind.isAssignableFrom(e.getKey())) {
        for (Object o : e.getValue().values()) {
          out.add(kind.cast(o));
        }
      }
    }
    List<T> result = List.copyOf(out);
    lists.put(kind, result);
    return result;
  }

  private static Object keyOf(Object o) {
    if (o instanceof ApiObject<?> a) {
      return a.metadata().key();
    }
    return o;
  }
}
