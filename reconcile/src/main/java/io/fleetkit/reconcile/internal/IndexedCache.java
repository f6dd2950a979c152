package io.fleetkit.reconcile.internal;

import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.reconcile.Lister;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The informer's store: objects by {@code namespace/name} plus inverted indexes (index name → value → keys),
 * as client-go's {@code threadSafeMap}. One read-write lock keeps objects and indexes consistent with each other;
 * writes come from the one informer dispatch thread at a time, reads from anywhere.
 */
public final class IndexedCache<T extends ApiObject<T>> implements Lister<T> {
  private static final Comparator<ApiObject<?>> BY_KEY = Comparator
      .comparing((ApiObject<?> o) -> o.metadata().namespace()).thenComparing(o -> o.metadata().name());

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Map<String, T> items = new HashMap<>();
  private final Map<String, Function<? super T, ? extends Collection<String>>> indexers;
  private final Map<String, Map<String, Set<String>>> indices = new HashMap<>();

  public IndexedCache(Map<String, Function<? super T, ? extends Collection<String>>> custom) {
    Map<String, Function<? super T, ? extends Collection<String>>> all = new LinkedHashMap<>();
    all.put(NAMESPACE_INDEX, o -> List.of(o.metadata().namespace()));
    all.put(LABEL_INDEX, IndexedCache::labelValues);
    all.putAll(custom);
    indexers = Map.copyOf(all);
    for (String name : indexers.keySet()) {
      indices.put(name, new HashMap<>());
    }
  }

  private static List<String> labelValues(ApiObject<?> o) {
    Map<String, String> labels = o.metadata().labels();
    List<String> values = new ArrayList<>(labels.size());
    labels.forEach((k, v) -> values.add(k + "=" + v));
    return values;
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
      if (old != null) {
        unindex(key, old);
      }
      index(key, object);
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
        unindex(key, old);
      }
      return old;
    } finally {
      lock.writeLock().unlock();
    }
  }

  private void index(String key, T object) {
    indexers.forEach((name, fn) -> {
      Map<String, Set<String>> index = indices.get(name);
      for (String value : fn.apply(object)) {
        index.computeIfAbsent(value, v -> new HashSet<>()).add(key);
      }
    });
  }

  private void unindex(String key, T object) {
    indexers.forEach((name, fn) -> {
      Map<String, Set<String>> index = indices.get(name);
      for (String value : fn.apply(object)) {
        Set<String> keys = index.get(value);
        if (keys != null) {
          keys.remove(key);
          if (keys.isEmpty()) {
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
    List<T> out;
    try {
      out = new ArrayList<>(items.values());
    } finally {
      lock.readLock().unlock();
    }
    return sorted(out);
  }

  private static <T extends ApiObject<T>> List<T> sorted(List<T> out) {
    out.sort(BY_KEY);
    return List.copyOf(out);
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
    lock.readLock().lock();
    try {
      // Narrow with the label index when the selector has an equality term; pick the rarest one.
      Collection<String> candidates = null;
      for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
        Set<String> keys = indices.get(LABEL_INDEX).getOrDefault(e.getKey() + "=" + e.getValue(), Set.of());
        if (candidates == null || keys.size() < candidates.size()) {
          candidates = keys;
        }
      }
      if (candidates == null && !namespace.isEmpty()) {
        candidates = indices.get(NAMESPACE_INDEX).getOrDefault(namespace, Set.of());
      }
      Collection<T> pool = candidates == null ? items.values() : resolve(candidates);
      for (T o : pool) {
        if ((namespace.isEmpty() || namespace.equals(o.metadata().namespace()))
            && selector.matches(o.metadata().labels())) {
          out.add(o);
        }
      }
    } finally {
      lock.readLock().unlock();
    }
    return sorted(out);
  }

  private List<T> resolve(Collection<String> keys) {
    List<T> out = new ArrayList<>(keys.size());
    for (String k : keys) {
      T o = items.get(k);
      if (o != null) {
        out.add(o);
      }
    }
    return out;
  }

  @Override
  public List<T> byIndex(String indexName, String value) {
    Objects.requireNonNull(indexName, "indexName");
    Objects.requireNonNull(value, "value");
    List<T> out;
    lock.readLock().lock();
    try {
      Map<String, Set<String>> index = indices.get(indexName);
      if (index == null) {
        throw new IllegalArgumentException("lister: no index named \"" + indexName + "\"; indexes are "
            + indices.keySet());
      }
      out = resolve(index.getOrDefault(value, Set.of()));
    } finally {
      lock.readLock().unlock();
    }
    return sorted(out);
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
