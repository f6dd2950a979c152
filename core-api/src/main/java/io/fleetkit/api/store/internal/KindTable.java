package io.fleetkit.api.store.internal;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.spi.WatchQueue;
import java.util.AbstractCollection;
import java.util.Collection;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The objects and watches of one kind. Objects are keyed {@code namespace/name} (or {@code name} when
 * cluster-scoped) in a {@link SortedKeys} (a hash map that lists in key order, sorting only what changed since its
 * last listing), so a namespace is a key range, and by namespace then name in hash maps, so a get needs no lock and
 * no key built for it. Mutated only under the store's write lock; {@link #watches} is replaced, never changed in
 * place.
 *
 * <p>A label index maps each (namespace, label key, label value) to the objects carrying that label, sorted by key,
 * so a list by selector in one namespace walks the smallest posting of the selector's {@code matchLabels} instead of
 * the whole namespace (the same objects in the same key order), without looking each one up again. It changes with
 * the objects, under the write lock, and is read under the read lock.
 *
 * <p>Every structure holds an object's {@link Slot}, not the object: an update that keeps the labels (a status write,
 * most writes) replaces the object in its slot and touches neither the key order nor the label postings, whatever
 * the number of objects and labels. A slot lives from the object's create to its delete.
 */
final class KindTable<T extends ApiObject<T>> {
  // '0' is the character after '/', so [ns + "/", ns + "0") is exactly the keys of namespace ns.
  private static final char AFTER_SEPARATOR = '/' + 1;

  /**
   * Where one stored object is: replaced under the write lock, read without a lock by gets. It keeps the object's
   * key, so that an update or a delete finds the key order's and the label postings' entries without building it.
   */
  private static final class Slot<T> {
    final String key;
    volatile T object;

    Slot(String key, T object) {
      this.key = key;
      this.object = object;
    }
  }

  final Class<T> kind;
  /** Read under the lock (lists); written only through {@link #put} and {@link #remove}. */
  private final SortedKeys<Slot<T>> objects = new SortedKeys<>();
  /**
   * The same slots by namespace, then name: a get is two hash lookups on the strings it is given instead of a walk
   * through a {@code namespace/name} key built for it.
   */
  private final ConcurrentHashMap<String, ConcurrentHashMap<String, Slot<T>>> byName = new ConcurrentHashMap<>();
  private final HashMap<String, SortedKeys<Slot<T>>> byLabel = new HashMap<>();
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

  /** The objects of {@code namespace}, or all of them for {@code ""}; sorted by key, as of this call (caller holds the read lock). */
  Collection<T> inNamespace(String namespace) {
    if (namespace.isEmpty()) {
      return objectsOf(objects.all());
    }
    return objectsOf(objects.range(namespace + '/', namespace + AFTER_SEPARATOR));
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
    ConcurrentHashMap<String, Slot<T>> names = byName.get(namespace);
    if (names == null) {
      return null;
    }
    Slot<T> slot = names.get(name);
    return slot == null ? null : slot.object;
  }

  /**
   * Stores {@code object} under its {@code namespace/name} key, keeping the label index. Caller holds the write lock.
   */
  void put(T object) {
    String ns = object.metadata().namespace();
    Map<String, String> labels = object.metadata().labels();
    changed(ns);
    ConcurrentHashMap<String, Slot<T>> names = byName.computeIfAbsent(ns, n -> new ConcurrentHashMap<>());
    Slot<T> slot = names.get(object.metadata().name());
    if (slot != null) {
      T old = slot.object;
      Map<String, String> oldLabels = old.metadata().labels();
      if (oldLabels != labels && !oldLabels.equals(labels)) {
        unindex(slot.key, old);
        index(slot.key, ns, labels, slot);
      }
      slot.object = object;
      return;
    }
    String key = object.metadata().key();
    slot = new Slot<>(key, object);
    objects.put(key, slot);
    names.put(object.metadata().name(), slot);
    index(key, ns, labels, slot);
  }

  /** Removes the object {@code name} in {@code namespace}, keeping the label index. Caller holds the write lock. */
  void remove(String namespace, String name) {
    ConcurrentHashMap<String, Slot<T>> names = byName.get(namespace);
    Slot<T> slot = names == null ? null : names.remove(name);
    if (slot != null) {
      objects.remove(slot.key);
      changed(namespace);
      unindex(slot.key, slot.object);
    }
  }

  private void index(String key, String ns, Map<String, String> labels, Slot<T> slot) {
    for (Map.Entry<String, String> e : labels.entrySet()) {
      byLabel.computeIfAbsent(posting(ns, e.getKey(), e.getValue()), k -> new SortedKeys<>()).put(key, slot);
    }
  }

  private void unindex(String key, T old) {
    String ns = old.metadata().namespace();
    for (Map.Entry<String, String> e : old.metadata().labels().entrySet()) {
      String p = posting(ns, e.getKey(), e.getValue());
      SortedKeys<Slot<T>> keys = byLabel.get(p);
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
   * list (no {@code matchLabels}, or every namespace asked). Caller holds the read lock.
   */
  @Nullable Collection<T> candidates(String namespace, LabelSelector selector) {
    if (namespace.isEmpty() || selector.matchLabels().isEmpty()) {
      return null;
    }
    SortedKeys<Slot<T>> best = null;
    for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
      SortedKeys<Slot<T>> keys = byLabel.get(posting(namespace, e.getKey(), e.getValue()));
      if (keys == null) {
        return java.util.List.of();
      }
      if (best == null || keys.size() < best.size()) {
        best = keys;
      }
    }
    return objectsOf(best.all());
  }

  /** The objects in {@code slots}, as a view in the same order (of each slot's object when read). */
  private static <T> Collection<T> objectsOf(Collection<Slot<T>> slots) {
    return new AbstractCollection<>() {
      @Override
      public Iterator<T> iterator() {
        Iterator<Slot<T>> it = slots.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public T next() {
            return it.next().object;
          }
        };
      }

      @Override
      public int size() {
        return slots.size();
      }

      @Override
      public Object[] toArray() {
        // what List.copyOf and addAll call
        Object[] out = new Object[slots.size()];
        int i = 0;
        for (Slot<T> s : slots) {
          out[i++] = s.object;
        }
        return out;
      }
    };
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
