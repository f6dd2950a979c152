package io.fleetkit.api.store.internal;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.spi.WatchQueue;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;

/**
 * The objects and watches of one kind. Objects are keyed {@code namespace/name} (or {@code name} when
 * cluster-scoped) in a sorted concurrent map, so a get needs no lock and a namespace is a key range. Mutated only
 * under the store's write lock; {@link #watches} is replaced, never changed in place.
 *
 * <p>A label index maps each (namespace, label key, label value) to the objects carrying that label, sorted by key,
 * so a list by selector in one namespace walks the smallest posting of the selector's {@code matchLabels} instead of
 * the whole namespace (the same objects in the same key order), without looking each one up again. It changes with
 * the objects, under the write lock, and is read under the read lock; an update that keeps the labels only replaces
 * the object in its postings.
 */
final class KindTable<T extends ApiObject<T>> {
  // '0' is the character after '/', so [ns + "/", ns + "0") is exactly the keys of namespace ns.
  private static final char AFTER_SEPARATOR = '/' + 1;

  final Class<T> kind;
  /** Read freely; written only through {@link #put} and {@link #remove} (which keep the label index). */
  final ConcurrentSkipListMap<String, T> objects = new ConcurrentSkipListMap<>();
  /**
   * The same objects by namespace, then name: a get is two hash lookups on the strings it is given instead of a walk
   * down the sorted map comparing a {@code namespace/name} key built for it.
   */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, T>> byName = new ConcurrentHashMap<>();
  private final HashMap<String, TreeMap<String, T>> byLabel = new HashMap<>();
  /**
   * Immutable lists of the objects of a namespace ({@code ""}: all), made by the first list after a change and
   * dropped by the next change of that namespace, so that repeated lists of a namespace that does not change (the
   * LimitRanges and ResourceQuotas admission reads on every create) share one list instead of copying the objects.
   * Filled under the read lock, emptied under the write lock: a list is never made from a half-written table.
   */
  private final ConcurrentHashMap<String, List<T>> lists = new ConcurrentHashMap<>();
  private volatile WatchQueue<T>[] watches;

  @SuppressWarnings("unchecked")
  KindTable(Class<T> kind) {
    this.kind = kind;
    this.watches = (WatchQueue<T>[]) new WatchQueue<?>[0];
  }

  static String key(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + '/' + name;
  }

  /** The objects of {@code namespace}, or all of them for {@code ""}; a live view, sorted by key. */
  Collection<T> inNamespace(String namespace) {
    if (namespace.isEmpty()) {
      return objects.values();
    }
    return objects.subMap(namespace + '/', namespace + AFTER_SEPARATOR).values();
  }

  /**
   * The objects of {@code namespace} ({@code ""}: all), sorted by key, as an immutable list shared until the
   * namespace changes. Caller holds the read lock.
   */
  List<T> list(String namespace) {
    List<T> l = lists.get(namespace);
    if (l == null) {
      l = List.copyOf(inNamespace(namespace));
      lists.put(namespace, l);
    }
    return l;
  }

  private void changed(String namespace) {
    if (!lists.isEmpty()) {
      lists.remove(namespace);
      lists.remove("");
    }
  }

  /** The object {@code name} in {@code namespace} ({@code ""} for cluster-scoped kinds), or null. No lock needed. */
  @Nullable T get(String namespace, String name) {
    ConcurrentHashMap<String, T> names = byName.get(namespace);
    return names == null ? null : names.get(name);
  }

  /** Stores {@code object} under {@code key}, keeping the label index. Caller holds the write lock. */
  void put(String key, T object) {
    T old = objects.put(key, object);
    byName.computeIfAbsent(object.metadata().namespace(), n -> new ConcurrentHashMap<>())
        .put(object.metadata().name(), object);
    Map<String, String> labels = object.metadata().labels();
    String ns = object.metadata().namespace();
    changed(ns);
    if (old != null) {
      Map<String, String> oldLabels = old.metadata().labels();
      if (oldLabels == labels || oldLabels.equals(labels)) {
        for (Map.Entry<String, String> e : labels.entrySet()) {
          byLabel.get(posting(ns, e.getKey(), e.getValue())).put(key, object);
        }
        return;
      }
      unindex(key, old);
    }
    for (Map.Entry<String, String> e : labels.entrySet()) {
      byLabel.computeIfAbsent(posting(ns, e.getKey(), e.getValue()), k -> new TreeMap<>()).put(key, object);
    }
  }

  /** Removes the object under {@code key}, keeping the label index. Caller holds the write lock. */
  void remove(String key) {
    T old = objects.remove(key);
    if (old != null) {
      ConcurrentHashMap<String, T> names = byName.get(old.metadata().namespace());
      if (names != null) {
        names.remove(old.metadata().name());
      }
      changed(old.metadata().namespace());
      unindex(key, old);
    }
  }

  private void unindex(String key, T old) {
    String ns = old.metadata().namespace();
    for (Map.Entry<String, String> e : old.metadata().labels().entrySet()) {
      String p = posting(ns, e.getKey(), e.getValue());
      TreeMap<String, T> keys = byLabel.get(p);
      if (keys != null && keys.remove(key) != null && keys.isEmpty()) {
        byLabel.remove(p);
      }
    }
  }

  private static String posting(String namespace, String key, String value) {
    return namespace + '\0' + key + '\0' + value;
  }

  /**
   * The objects, in key order, in {@code namespace} that carry the label of {@code selector}'s {@code matchLabels}
   * held by the fewest objects: a superset of the selector's matches. {@code null} when the index cannot narrow the
   * list (no {@code matchLabels}, or every namespace asked). A live view: caller holds the read lock while reading.
   */
  @Nullable Collection<T> candidates(String namespace, LabelSelector selector) {
    if (namespace.isEmpty() || selector.matchLabels().isEmpty()) {
      return null;
    }
    TreeMap<String, T> best = null;
    for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
      TreeMap<String, T> keys = byLabel.get(posting(namespace, e.getKey(), e.getValue()));
      if (keys == null) {
        return java.util.List.of();
      }
      if (best == null || keys.size() < best.size()) {
        best = keys;
      }
    }
    return best.values();
  }

  WatchQueue<T>[] watches() {
    return watches;
  }

  /** Caller holds the write lock. */
  void addWatch(WatchQueue<T> watch) {
    WatchQueue<T>[] old = watches;
    WatchQueue<T>[] next = java.util.Arrays.copyOf(old, old.length + 1);
    next[old.length] = watch;
    watches = next;
  }

  /** Caller holds the write lock. */
  void removeWatch(WatchQueue<?> watch) {
    WatchQueue<T>[] old = watches;
    for (int i = 0; i < old.length; i++) {
      if (old[i] == watch) {
        WatchQueue<T>[] next = java.util.Arrays.copyOf(old, old.length - 1);
        System.arraycopy(old, i + 1, next, i, old.length - i - 1);
        watches = next;
        return;
      }
    }
  }
}
