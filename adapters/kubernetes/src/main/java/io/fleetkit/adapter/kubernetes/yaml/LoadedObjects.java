package io.fleetkit.adapter.kubernetes.yaml;

import io.fleetkit.api.meta.ApiObject;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;
import java.util.TreeMap;

/**
 * Objects loaded from manifests, in source and document order, with their counts per kind.
 *
 * @param objects every object, in the order the sources listed them
 * @param countsByKind the number of objects per kind, sorted by kind name
 */
public record LoadedObjects(List<ApiObject<?>> objects, Map<String, Integer> countsByKind) {
  public LoadedObjects {
    objects = List.copyOf(objects);
    countsByKind = Collections.unmodifiableMap(new TreeMap<>(countsByKind));
  }

  /** Counts the kinds of {@code objects}. */
  public static LoadedObjects of(List<? extends ApiObject<?>> objects) {
    Map<String, Integer> counts = new TreeMap<>();
    for (ApiObject<?> o : objects) {
      counts.merge(o.kind(), 1, Integer::sum);
    }
    return new LoadedObjects(new ArrayList<>(objects), counts);
  }

  /** The objects of one type, in order. */
  public <T extends ApiObject<T>> List<T> ofType(Class<T> type) {
    List<T> out = new ArrayList<>();
    for (ApiObject<?> o : objects) {
      if (type.isInstance(o)) {
        out.add(type.cast(o));
      }
    }
    return List.copyOf(out);
  }

  public int size() {
    return objects.size();
  }

  /** {@code 14 objects (5 Node, 9 Pod)}: the total, then the count of each kind sorted by kind name. */
  public String summary() {
    StringJoiner kinds = new StringJoiner(", ", " (", ")");
    kinds.setEmptyValue("");
    countsByKind.forEach((kind, n) -> kinds.add(n + " " + kind));
    return objects.size() + (objects.size() == 1 ? " object" : " objects") + kinds;
  }
}
