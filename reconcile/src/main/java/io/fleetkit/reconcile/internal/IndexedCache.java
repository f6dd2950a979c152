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
import java.util.concurrent.ConcurrentHashMap;
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
  private final Map<String, Map<String, Posting>> indices = new HashMap<>();
  /** The postings each cached key is in, so that an update that moves it between none refreshes them directly. */
  private final Map<String, List<Posting>> memberships = new HashMap<>();
  /** The last answer of {@link #list(String, LabelSelector)} per (namespace, selector) and the posting it filtered. */
  private final Map<SelectorKey, Selected<T>> selected = new ConcurrentHashMap<>();

  /** Bound on {@link #selected}: cleared when it holds this many (selectors of deleted owners pile up). */
  private static final int MAX_SELECTED = 4096;

  private record SelectorKey(String namespace, LabelSelector selector) {}

  /** An answer, the candidates it was filtered from and which of them matched. */
  private record Selected<T>(List<T> from, boolean[] matched, List<T> answer) {}

  /**
   * One index value's keys in listing order, and the list of their objects, made on the first read after a change
   * and returned again, the same instance, until the next: a controller that reads the same owner's pods twice
   * without a change between pays once. After updates of a few of its objects only (no key joined or left, the usual
   * status write), the next read copies the last list and replaces those objects, found by binary search, instead of
   * looking up every key again.
   */
  private final class Posting {
    /** Updated keys remembered before the next read resolves every key instead. */
    private static final int MAX_PATCHES = 8;

    final NavigableSet<String> keys = new TreeSet<>(KEY_ORDER);
    /** The last list made; current unless {@link #structural} or {@link #updated} say otherwise. */
    private @Nullable List<T> view;
    /** A key joined or left since {@link #view} was made. */
    private boolean structural = true;
    /** Keys whose objects were replaced since {@link #view} was made (distinct, at most {@link #MAX_PATCHES}). */
    private final List<String> updated = new ArrayList<>(2);

    /** A key joined or left (under the write lock). */
    synchronized void changed() {
      structural = true;
      updated.clear();
    }

    /** The object at {@code key} was replaced (under the write lock). */
    synchronized void updated(String key) {
      if (structural || view == null) {
        return;
      }
      if (updated.size() >= MAX_PATCHES) {
        structural = true;
        updated.clear();
      } else if (!updated.contains(key)) {
        updated.add(key);
      }
    }

    /** The objects (under the cache's lock, read or write; concurrent readers serialize here). */
    synchronized List<T> view() {
      List<T> v = view;
      if (v != null && !structural && updated.isEmpty()) {
        return v;
      }
      if (v == null || structural) {
        v = keys.isEmpty() ? List.of() : resolve(keys);
      } else {
        @SuppressWarnings("unchecked")
        T[] objects = (T[]) v.toArray(new ApiObject<?>[0]);
        for (String key : updated) {
          objects[indexOf(objects, key)] = items.get(key);
        }
        v = Collections.unmodifiableList(java.util.Arrays.asList(objects));
      }
      view = v;
      structural = false;
      updated.clear();
      return v;
    }
  }

  /** The position of {@code key} in {@code objects}, which are in listing order and hold it. */
  private static int indexOf(ApiObject<?>[] objects, String key) {
    int lo = 0;
    int hi = objects.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      int c = compareKeys(objects[mid].metadata().key(), key);
      if (c < 0) {
        lo = mid + 1;
      } else if (c > 0) {
        hi = mid - 1;
      } else {
        return mid;
      }
    }
    throw new IllegalStateException("informer cache: " + key + " missing from its index list");
  }

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
      if (old != null) {
        for (Posting p : memberships.getOrDefault(key, List.of())) {
          p.updated(key); // an updated object: its postings' lists hold the old one
        }
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
      Map<String, Posting> index = indices.get(name);
      for (String value : fn.apply(object)) {
        join(key, index.computeIfAbsent(value, v -> new Posting()));
      }
    });
  }

  private void join(String key, Posting p) {
    p.keys.add(key);
    p.changed();
    memberships.computeIfAbsent(key, k -> new ArrayList<>(4)).add(p);
  }

  private void leave(String key, Map<String, Posting> index, String value) {
    Posting p = index.get(value);
    if (p == null) {
      return;
    }
    p.keys.remove(key);
    p.changed();
    if (p.keys.isEmpty()) {
      index.remove(value);
    }
    List<Posting> in = memberships.get(key);
    if (in != null) {
      in.remove(p);
      if (in.isEmpty()) {
        memberships.remove(key);
      }
    }
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
      Map<String, Posting> index = indices.get(name);
      for (String value : before) {
        leave(key, index, value);
      }
      for (String value : after) {
        join(key, index.computeIfAbsent(value, v -> new Posting()));
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
      Map<String, Posting> index = indices.get(name);
      for (String value : fn.apply(object)) {
        leave(key, index, value);
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
    // every candidate set below is in key order, so the filtered answer is too
    lock.readLock().lock();
    try {
      // Narrow with the label index when the selector has an equality term; pick the rarest one.
      Posting candidates = null;
      Map<String, Posting> labelIndex = indices.get(LABEL_INDEX);
      for (Map.Entry<String, String> e : selector.matchLabels().entrySet()) {
        Posting withLabel = labelIndex.get(e.getKey() + "=" + e.getValue());
        if (withLabel == null) {
          return List.of();
        }
        if (candidates == null || withLabel.keys.size() < candidates.keys.size()) {
          candidates = withLabel;
        }
      }
      if (candidates == null && !namespace.isEmpty()) {
        candidates = indices.get(NAMESPACE_INDEX).get(namespace);
        if (candidates == null) {
          return List.of();
        }
      }
      if (candidates == null) {
        return filter(resolve(keys), namespace, selector);
      }
      // the answer depends only on the candidates' objects: while their list is the same, so is the answer
      List<T> from = candidates.view();
      SelectorKey memoKey = new SelectorKey(namespace, selector);
      Selected<T> last = selected.get(memoKey);
      if (last != null && last.from() == from) {
        return last.answer();
      }
      Selected<T> now = filter(from, namespace, selector, last);
      if (selected.size() >= MAX_SELECTED) {
        selected.clear();
      }
      selected.put(memoKey, now);
      return now.answer();
    } finally {
      lock.readLock().unlock();
    }
  }

  /**
   * Filters {@code from}; the candidates that are the same objects as in {@code last}'s common head and tail (one
   * changed object in between, mostly) take their match from it instead of matching the selector again.
   */
  private static <T extends ApiObject<T>> Selected<T> filter(List<T> from, String namespace, LabelSelector selector,
      @Nullable Selected<T> last) {
    int head = 0;
    int tail = 0;
    if (last != null) {
      List<T> old = last.from();
      int max = Math.min(old.size(), from.size());
      while (head < max && old.get(head) == from.get(head)) {
        head++;
      }
      while (tail < max - head && old.get(old.size() - 1 - tail) == from.get(from.size() - 1 - tail)) {
        tail++;
      }
    }
    boolean[] matched = new boolean[from.size()];
    List<T> out = new ArrayList<>();
    for (int i = 0; i < matched.length; i++) {
      T o = from.get(i);
      boolean m;
      if (i < head) {
        m = last.matched()[i];
      } else if (i >= matched.length - tail) {
        m = last.matched()[last.matched().length - (matched.length - i)];
      } else {
        m = (namespace.isEmpty() || namespace.equals(o.metadata().namespace()))
            && selector.matches(o.metadata().labels());
      }
      matched[i] = m;
      if (m) {
        out.add(o);
      }
    }
    return new Selected<>(from, matched, out.isEmpty() ? List.of() : Collections.unmodifiableList(out));
  }

  private static <T extends ApiObject<T>> List<T> filter(List<T> pool, String namespace, LabelSelector selector) {
    List<T> out = new ArrayList<>();
    for (T o : pool) {
      if ((namespace.isEmpty() || namespace.equals(o.metadata().namespace()))
          && selector.matches(o.metadata().labels())) {
        out.add(o);
      }
    }
    return out.isEmpty() ? List.of() : Collections.unmodifiableList(out);
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
      Map<String, Posting> index = indices.get(indexName);
      if (index == null) {
        throw new IllegalArgumentException("lister: no index named \"" + indexName + "\"; indexes are "
            + indices.keySet());
      }
      Posting p = index.get(value);
      return p == null ? List.of() : p.view();
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
