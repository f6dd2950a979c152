package io.fleetkit.api.store.internal;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.spi.WatchQueue;
import java.util.Collection;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The objects and watches of one kind. Objects are keyed {@code namespace/name} (or {@code name} when
 * cluster-scoped) in a sorted concurrent map, so a get needs no lock and a namespace is a key range. Mutated only
 * under the store's write lock; {@link #watches} is replaced, never changed in place.
 */
final class KindTable<T extends ApiObject<T>> {
  // '0' is the character after '/', so [ns + "/", ns + "0") is exactly the keys of namespace ns.
  private static final char AFTER_SEPARATOR = '/' + 1;

  final Class<T> kind;
  final ConcurrentSkipListMap<String, T> objects = new ConcurrentSkipListMap<>();
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
