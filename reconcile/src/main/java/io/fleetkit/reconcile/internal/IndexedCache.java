package io.fleetkit.reconcile.internal;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The informer's store: objects by {@code namespace/name} plus inverted indexes (index name → value → keys),
 * as client-go's {@code threadSafeMap}. One read-write lock keeps objects and indexes consistent with each other;
 * writes come from the one informer dispatch thread at a time, reads from anywhere.
 *
 * <p>Every key set (all keys, and each index value's keys) is kept in listing order (namespace, then name), so a
 * list or index read costs the size of its answer and never sorts: a controller that reads the hundred pods it owns
 * among ten thousand in its namespace pays for a hundred.
 */
public final class IndexedCache<T extends ApiObject<T>> implements Lister<T> {
  /** Orders {@code namespace/name} keys (or bare names) as namespace then name, the order lists promise. */
  public static final Comparator<String> KEY_ORDER = IndexedCache::compareKeys;

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, T> items = new HashMap<>();
  private final NavigableSet<String> keys = new TreeSet<>(KEY_ORDER);
  private final Map<String, Function<? super T, ? extends Collection<String>>> indexers;
  private final Map<String, Map<String, NavigableSet<String>>> indices = new HashMap<>();

  public IndexedCache(Map<String, Function<? super T, ? extends Collection<String>>> custom) {
    Map<String, Function<? super T, ? extends Collection<String>>> all = new LinkedHashMap<>();
    all.put(NAMESPACE_INDEX, BY_NAMESPACE);
    all.put(LABEL_INDEX, BY_LABELS);
    all.put(CONTROLLER_INDEX, BY_CONTROLLER);
    all.putAll(custom);
    indexers = Map.copyOf(all);
    for (String name : indexers.keySet()) {
      indices.put(name, new HashMap<>());
    }
  }

  private static final Function<ApiObject<?>, List<String>> BY_NAMESPACE = o -> List.of(o.metadata().namespace());
  private static final Function<ApiObject<?>, List<String>> BY_LABELS = IndexedCache::labelValues;
  private static final Function<ApiObject<?>, List<String>> BY_CONTROLLER = IndexedCache::controllerUid;

  private static List<String> labelValues(ApiObject<?> o) {
    Map<String, String> labels = o.metadata().labels();
    List<String> values = new ArrayList<>(labels.size());
    labels.forEach((k, v) -> values.add(k + "=" + v));
    return values;
  }

  private static List<String> controllerUid(ApiObject<?> o) {
    OwnerReference ref = o.metadata().controllerRef();
    return ref == null ? List.of() : List.of(ref.uid());
  }

  /** Compares keys as (namespace, name): a key without '/' is a cluster-scoped name (namespace ""). */
  static int compareKeys(String a, String b) {
    int sa = a.indexOf('/');
    int sb = b.indexOf('/');
    int nsA = Math.max(sa, 0);
    int nsB = Math.max(sb, 0);
    int c = compareRegion(a, 0, nsA, b, 0, nsB);
    return c != 0 ? c : compareRegion(a, sa + 1, a.length(), b, sb + 1, b.length());
  }

  private static int compareRegion(String a, int fromA, int toA, String b, int fromB, int toB) {
    int n = Math.min(toA - fromA, toB - fromB);
    for (int i = 0; i < n; i++) {
      char x = a.charAt(fromA + i);
      char y = b.charAt(fromB + i);
      if (x != y) {
        return x - y;
      }
    }
    return (toA - fromA) - (toB - fromB);
  }

  static String key(String namespace, String name) {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  /** Stores {@code object}; returns the previous one at its key. */
  public @Nullable T put(T object) {
    String key = object.metadata().key();
    lock.writeLock().lock();
    try {
      T old = items.put(key, object);
      if (old == null) {
        keys.add(key);
        index(key, object);
      } else {
        reindex(key, old, object);
      }
      return old;
    } finally {
      lock.writeLock().unlock();
    }
  }

  /** Removes the object at {@code key}; returns it. */
  public @Nullable T remove(String key) {
    lock.writeLock().lock();
    try {
      T old = items.remove(key);
      if (old != null) {
        keys.remove(key);
        unindex(key, old);
      }
      return old;
    } finally {
      lock.writeLock().unlock();
    }
  }

  private void index(String key, T object) {
    indexers.forEach((name, fn) -> {
      Map<String, NavigableSet<String>> index = indices.get(name);
      for (String value : fn.apply(object)) {
        index.computeIfAbsent(value, v -> new TreeSet<>(KEY_ORDER)).add(key);
      }
    });
  }

  /** Moves {@code key} between index values, touching only the indexes whose values changed (status updates
   * usually change none). */
  private void reindex(String key, T old, T object) {
    indexers.forEach((name, fn) -> {
      if (unchanged(fn, old, object)) {
        return;
      }
      Collection<String> before = fn.apply(old);
      Collection<String> after = fn.apply(object);
      if (before.equals(after)) {
        return;
      }
      Map<String, NavigableSet<String>> index = indices.get(name);
      for (String value : before) {
        NavigableSet<String> members = index.get(value);
        if (members != null) {
          members.remove(key);
          if (members.isEmpty()) {
            index.remove(value);
          }
        }
      }
      for (String value : after) {
        index.computeIfAbsent(value, v -> new TreeSet<>(KEY_ORDER)).add(key);
      }
    });
  }

  /**
   * Whether the built-in indexer {@code fn} certainly gives {@code old} and {@code object} (same key) the same values,
   * judged from the fields it reads, without computing them: the namespace is part of the key, the labels and the
   * owner references are compared as they are. False for custom indexers (their values are compared).
   */
  private static boolean unchanged(Function<?, ?> fn, ApiObject<?> old, ApiObject<?> object) {
    if (fn == BY_NAMESPACE) {
      return true;
    }
    if (fn == BY_LABELS) {
      return old.metadata().labels().equals(object.metadata().labels());
    }
    if (fn == BY_CONTROLLER) {
      return old.metadata().ownerReferences().equals(object.metadata().ownerReferences());
    }
    return false;
  }

  private void unindex(String key, T object) {
    indexers.forEach((name, fn) -> {
      Map<String, NavigableSet<String>> index = indices.get(name);
      for (String value : fn.apply(object)) {
        NavigableSet<String> members = index.get(value);
        if (members != null) {
          members.remove(key);
          if (members.isEmpty()) {
            index.remove(value);
          }
        }
      }
    });
  }

  /** A sorted snapshot of every object. */
  @Override
  public List<T> list() {
    lock.readLock().lock();
    try {
      return resolve(keys);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Optional<T> get(String namespace, String name) {
    lock.readLock().lock();
    try {
      return Optional.ofNullable(items.get(key(namespace, name)));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public List<T> list(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    return namespace.isEmpty() ? list() : byIndex(NAMESPACE_INDEX, namespace);
  }

  @Override
  public List<T> list(String namespace, LabelSelector selector) {
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(selector, "selector");
    List<T> out = new ArrayList<>();
    // every candidate set below is in key order, so the filtered answer is too
    lock.readLock().lock();
    try {
      // Narrow with the label index when the selector has an equality term; pick the rarest one.
      Collection<String> candidates = null;
      for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
        Set<String> withLabel = indices.get(LABEL_INDEX).getOrDefault(e.getKey() + "=" + e.getValue(),
            Collections.emptyNavigableSet());
        if (candidates == null || withLabel.size() < candidates.size()) {
          candidates = withLabel;
        }
      }
      if (candidates == null && !namespace.isEmpty()) {
        candidates = indices.get(NAMESPACE_INDEX).getOrDefault(namespace, Collections.emptyNavigableSet());
      }
      Collection<T> pool = resolve(candidates == null ? keys : candidates);
      for (T o : pool) {
        if ((namespace.isEmpty() || namespace.equals(o.metadata().namespace()))
            && selector.matches(o.metadata().labels())) {
          out.add(o);
        }
      }
    } finally {
      lock.readLock().unlock();
    }
    return Collections.unmodifiableList(out);
  }

  /** The objects at {@code sortedKeys}, in that order, as an unmodifiable list (the caller holds the lock). */
  private List<T> resolve(Collection<String> sortedKeys) {
    List<T> out = new ArrayList<>(sortedKeys.size());
    for (String k : sortedKeys) {
      T o = items.get(k);
      if (o != null) {
        out.add(o);
      }
    }
    return Collections.unmodifiableList(out);
  }

  @Override
  public List<T> byIndex(String indexName, String value) {
    Objects.requireNonNull(indexName, "indexName");
    Objects.requireNonNull(value, "value");
    lock.readLock().lock();
    try {
      Map<String, NavigableSet<String>> index = indices.get(indexName);
      if (index == null) {
        throw new IllegalArgumentException("lister: no index named \"" + indexName + "\"; indexes are "
            + indices.keySet());
      }
      return resolve(index.getOrDefault(value, Collections.emptyNavigableSet()));
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public Set<String> indexNames() {
    return indexers.keySet();
  }

  @Override
  public int size() {
    lock.readLock().lock();
    try {
      return items.size();
    } finally {
      lock.readLock().unlock();
    }
  }
}
