package io.fleetkit.api.store.internal;

import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.store.WatchListener;
import io.fleetkit.api.store.spi.ResourceVersions;
import io.fleetkit.api.store.spi.WatchQueue;
import io.fleetkit.api.store.spi.WriteRules;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The in-memory {@link ObjectStore}. See the interface for the contract; this class documents the mechanics.
 *
 * <p>One {@link ReentrantReadWriteLock}: every write takes the write lock for validation, the version bump, the
 * map update, the history append and the append to each watch queue of the kind (all O(1) per watch, no copying
 * of other objects). Lists take the read lock only while copying references out of the kind's map. Gets take no
 * lock. Listeners run after the lock is released (see {@link WatchQueue}).
 *
 * <p>With an admission chain, create, update and delete run it first, outside the lock (plugins read and write the
 * store, for example a quota's status), then write as without one; if the write fails the chain's undo actions run.
 * Without a chain nothing of this runs.
 *
 * <p>The history is a ring indexed by resourceVersion: versions are consecutive (every write produces exactly one
 * event), so the event of version {@code v} sits at {@code v % historyLimit} and the retained versions are
 * {@code (max(1, version - historyLimit), version]}.
 */
public final class InMemoryObjectStore implements ObjectStore {
  /** The version of a new store; the first write gets the next one, so no list ever returns "0" (= "now"). */
  private static final long INITIAL_VERSION = 1;

  private final Clock clock;
  private final int historyLimit;
  private final Executor executor;
  private final @Nullable ExecutorService ownedExecutor;
  private final Supplier<String> uids;
  private final int watchQueueLimit;
  private final AdmissionChain admission;

  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final ConcurrentHashMap<Class<?>, KindTable<?>> tables = new ConcurrentHashMap<>();
  private final WatchEvent<?>[] history;
  private volatile long version = INITIAL_VERSION;
  /** {@link #version} as text, for lists. */
  private volatile String versionText = Long.toString(INITIAL_VERSION);
  private volatile boolean closed;

  /**
   * @param executor drains watch queues; {@code null} for a store-owned daemon pool
   */
  public InMemoryObjectStore(Clock clock, int historyLimit, @Nullable Executor executor, Supplier<String> uids) {
    this(clock, historyLimit, executor, uids, AdmissionChain.empty());
  }

  /**
   * @param executor drains watch queues; {@code null} for a store-owned daemon pool
   * @param admission run on create, update and delete before the write; {@link AdmissionChain#empty()} for none
   */
  public InMemoryObjectStore(Clock clock, int historyLimit, @Nullable Executor executor, Supplier<String> uids,
      AdmissionChain admission) {
    this(clock, historyLimit, executor, uids, admission,
        io.fleetkit.api.store.ObjectStoreBuilder.DEFAULT_WATCH_QUEUE_LIMIT);
  }

  /**
   * @param executor drains watch queues; {@code null} for a store-owned daemon pool
   * @param admission run on create, update and delete before the write; {@link AdmissionChain#empty()} for none
   * @param watchQueueLimit the most undelivered events one watch may hold before it is ended as too old
   */
  public InMemoryObjectStore(Clock clock, int historyLimit, @Nullable Executor executor, Supplier<String> uids,
      AdmissionChain admission, int watchQueueLimit) {
    this.admission = Objects.requireNonNull(admission, "admission");
    if (watchQueueLimit < 1) {
      throw new IllegalArgumentException("watchQueueLimit must be at least 1 but was " + watchQueueLimit);
    }
    this.watchQueueLimit = watchQueueLimit;
    this.clock = Objects.requireNonNull(clock, "clock");
    if (historyLimit < 1) {
      throw new IllegalArgumentException("historyLimit must be at least 1 but was " + historyLimit);
    }
    this.historyLimit = historyLimit;
    this.uids = Objects.requireNonNull(uids, "uids");
    if (executor == null) {
      ownedExecutor = Executors.newCachedThreadPool(new DaemonThreads());
      this.executor = ownedExecutor;
    } else {
      ownedExecutor = null;
      this.executor = executor;
    }
    history = new WatchEvent<?>[historyLimit];
  }

  // ---------------------------------------------------------------------------------------------------- create

  @Override
  public <T extends ApiObject<T>> T create(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    return WriteRules.create(this, admission, object, this::doCreate);
  }

  private <T extends ApiObject<T>> T doCreate(T object) {
    ObjectMeta meta = object.metadata();
    String uid = uids.get();
    KindTable<T> table = table(kindOf(object));
    T created;
    WatchQueue<T>[] watches;
    lock.writeLock().lock();
    try {
      if (table.get(meta.namespace(), meta.name()) != null) { // two hash lookups, not a walk of the sorted map
        throw WriteRules.alreadyExists(object);
      }
      long rv = version + 1;
      created = WriteRules.created(object, uid, Long.toString(rv), clock.instant());
      table.put(created);
      watches = commit(table, WatchEventType.ADDED, created, rv);
    } finally {
      lock.writeLock().unlock();
    }
    deliver(watches);
    return created;
  }

  // ------------------------------------------------------------------------------------------------------ read

  @Override
  public <T extends ApiObject<T>> Optional<T> get(Class<T> kind, String namespace, String name) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    checkOpen();
    KindTable<T> table = existingTable(kind);
    return table == null ? Optional.empty() : Optional.ofNullable(table.get(namespace, name));
  }

  @Override
  public <T extends ApiObject<T>> T require(Class<T> kind, String namespace, String name) {
    return get(kind, namespace, name).orElseThrow(() -> notFound(kind, namespace, name));
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace) {
    return snapshot(kind, namespace, null);
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, LabelSelector selector) {
    Objects.requireNonNull(selector, "selector");
    return snapshot(kind, namespace, selector);
  }

  private <T extends ApiObject<T>> ListResult<T> snapshot(Class<T> kind, String namespace,
      @Nullable LabelSelector selector) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    checkOpen();
    lock.readLock().lock();
    try {
      // The table is looked up under the lock: looked up before it, a kind's first create could commit in between,
      // and the list would claim that version without the object (a list+watch would then never see it).
      KindTable<T> table = existingTable(kind);
      String rv = versionText;
      if (table == null) {
        return new ListResult<>(List.of(), rv);
      }
      if (selector == null || selector.matchLabels().isEmpty() && selector.matchExpressions().isEmpty()) {
        return new ListResult<>(table.list(namespace), rv);
      }
      List<T> items = new ArrayList<>();
      Collection<T> candidates = table.candidates(namespace, selector);
      if (candidates != null && selector.matchExpressions().isEmpty() && selector.matchLabels().size() == 1) {
        items.addAll(candidates); // one label pair: its posting is exactly the matches, in key order
      } else if (candidates != null) {
        for (T o : candidates) {
          if (o.metadata().namespace().equals(namespace) && selector.matches(o.metadata().labels())) {
            items.add(o);
          }
        }
      } else {
        for (T o : table.inNamespace(namespace)) {
          if (selector.matches(o.metadata().labels())) {
            items.add(o);
          }
        }
      }
      return new ListResult<>(items, rv);
    } finally {
      lock.readLock().unlock();
    }
  }

  @Override
  public <T extends ApiObject<T>> ListResult<T> list(Class<T> kind, String namespace, Predicate<? super T> filter) {
    Objects.requireNonNull(filter, "filter");
    ListResult<T> all = list(kind, namespace);
    // The filter is caller code: run it outside the lock, on the immutable snapshot.
    List<T> items = new ArrayList<>();
    for (T o : all.items()) {
      if (filter.test(o)) {
        items.add(o);
      }
    }
    return new ListResult<>(items, all.resourceVersion());
  }

  @Override
  public String resourceVersion() {
    return Long.toString(version);
  }

  // ---------------------------------------------------------------------------------------------------- update

  @Override
  public <T extends ApiObject<T>> T update(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    return WriteRules.update(this, admission, object, this::doUpdate);
  }

  private <T extends ApiObject<T>> T doUpdate(T object) {
    ObjectMeta meta = object.metadata();
    return write(kindOf(object), meta.namespace(), meta.name(), object, stored -> WriteRules.update(stored, object));
  }

  /** One write: the update's rules and admission, then {@code object}'s status (see the contract). */
  @Override
  public <T extends ApiObject<T>> T updateWithStatus(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    return WriteRules.update(this, admission, object, admitted -> {
      ObjectMeta meta = admitted.metadata();
      return write(kindOf(admitted), meta.namespace(), meta.name(), admitted,
          stored -> WriteRules.updateWithStatus(stored, admitted));
    });
  }

  @Override
  public Pod resize(Pod pod) {
    Objects.requireNonNull(pod, "pod");
    checkOpen();
    return WriteRules.update(this, admission, pod, admitted -> {
      ObjectMeta meta = admitted.metadata();
      return write(Pod.class, meta.namespace(), meta.name(), admitted, stored -> WriteRules.resize(stored, admitted));
    });
  }

  /** Not admitted, like a status update (see the contract). */
  @Override
  public io.fleetkit.api.core.Namespace finalizeNamespace(io.fleetkit.api.core.Namespace namespace) {
    Objects.requireNonNull(namespace, "namespace");
    checkOpen();
    ObjectMeta meta = namespace.metadata();
    return write(io.fleetkit.api.core.Namespace.class, meta.namespace(), meta.name(), namespace,
        stored -> WriteRules.finalizeNamespace(stored, namespace));
  }

  @Override
  public <T extends ApiObject<T>> T updateStatus(T object) {
    Objects.requireNonNull(object, "object");
    checkOpen();
    ObjectMeta meta = object.metadata();
    return write(kindOf(object), meta.namespace(), meta.name(), object,
        stored -> WriteRules.updateStatus(stored, object));
  }

  // ---------------------------------------------------------------------------------------------------- delete

  @Override
  public <T extends ApiObject<T>> T delete(Class<T> kind, String namespace, String name, DeleteOptions options) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(namespace, "namespace");
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(options, "options");
    checkOpen();
    return WriteRules.delete(this, admission, kind, namespace, name, () -> doDelete(kind, namespace, name, options));
  }

  private <T extends ApiObject<T>> T doDelete(Class<T> kind, String namespace, String name, DeleteOptions options) {
    return write(kind, namespace, name, null, stored -> WriteRules.delete(stored, options, clock.instant()));
  }

  /**
   * The write path of update, updateStatus and delete: under the write lock, reads the stored object, applies
   * {@code rule} to it and commits the change it returns (nothing for {@link WriteRules.Effect#NONE}, which returns
   * the stored object without a version or an event); then delivers the event. A missing object is a
   * {@link NotFoundException} naming {@code sent} when there is one, else the kind and key.
   */
  private <T extends ApiObject<T>> T write(Class<T> kind, String namespace, String name, @Nullable T sent,
      Function<T, WriteRules.Change<T>> rule) {
    KindTable<T> table = table(kind);
    T result;
    WatchQueue<T>[] watches;
    lock.writeLock().lock();
    try {
      T stored = table.get(namespace, name);
      if (stored == null) {
        throw sent != null ? notFound(sent) : notFound(kind, namespace, name);
      }
      WriteRules.Change<T> change = rule.apply(stored);
      if (change.effect() == WriteRules.Effect.NONE) {
        return stored; // no-op: no version, no event
      }
      long rv = version + 1;
      result = WriteRules.withVersion(change.object(), Long.toString(rv));
      if (change.effect() == WriteRules.Effect.REMOVE) {
        table.remove(namespace, name);
        watches = commit(table, WatchEventType.DELETED, result, rv);
      } else {
        table.put(result);
        watches = commit(table, WatchEventType.MODIFIED, result, rv);
      }
    } finally {
      lock.writeLock().unlock();
    }
    deliver(watches);
    return result;
  }

  // ----------------------------------------------------------------------------------------------------- watch

  @Override
  public <T extends ApiObject<T>> Watch watch(Class<T> kind, String fromResourceVersion, WatchListener<T> listener) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(fromResourceVersion, "fromResourceVersion");
    Objects.requireNonNull(listener, "listener");
    checkOpen();
    long from = ResourceVersions.parse(fromResourceVersion);
    KindTable<T> table = table(kind);
    WatchQueue<T> watch = new WatchQueue<>(kind, listener, executor, watchQueueLimit, w -> removeWatch(table, w));
    lock.writeLock().lock();
    try {
      long now = version;
      if (from > now) {
        throw new IllegalArgumentException("watch on " + kind.getSimpleName() + ": resourceVersion "
            + fromResourceVersion + " is newer than the store's current version " + now);
      }
      if (from > 0) {
        long compacted = Math.max(INITIAL_VERSION, now - historyLimit);
        if (from < compacted) {
          throw new ExpiredException("too old resource version: " + from + " (" + compacted + ")");
        }
        for (long v = from + 1; v <= now; v++) {
          WatchEvent<?> e = history[(int) (v % historyLimit)];
          if (e.object().getClass() == kind) {
            @SuppressWarnings("unchecked")
            WatchEvent<T> typed = (WatchEvent<T>) e;
            watch.enqueue(typed);
          }
        }
      }
      table.addWatch(watch);
    } finally {
      lock.writeLock().unlock();
    }
    watch.schedule();
    return watch;
  }

  private void removeWatch(KindTable<?> table, WatchQueue<?> watch) {
    lock.writeLock().lock();
    try {
      table.removeWatch(watch);
    } finally {
      lock.writeLock().unlock();
    }
  }

  // ----------------------------------------------------------------------------------------------------- close

  @Override
  public void close() {
    lock.writeLock().lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      for (KindTable<?> t : tables.values()) {
        for (WatchQueue<?> w : t.watches()) {
          w.closeQuietly();
        }
      }
    } finally {
      lock.writeLock().unlock();
    }
    if (ownedExecutor != null) {
      ownedExecutor.shutdown();
    }
  }

  @Override
  public String toString() {
    return "InMemoryObjectStore{version=" + version + ", kinds=" + tables.size() + "}";
  }

  // --------------------------------------------------------------------------------------------------- helpers

  /** Records a committed change: bumps the version, keeps the event for replay, queues it. Under the write lock. */
  private <T extends ApiObject<T>> WatchQueue<T>[] commit(KindTable<T> table, WatchEventType type, T object,
      long rv) {
    WatchEvent<T> event = new WatchEvent<>(type, object);
    history[(int) (rv % historyLimit)] = event;
    version = rv;
    versionText = Long.toString(rv);
    WatchQueue<T>[] watches = table.watches();
    for (WatchQueue<T> w : watches) {
      w.enqueue(event);
    }
    return watches;
  }

  private static <T extends ApiObject<T>> void deliver(WatchQueue<T>[] watches) {
    for (WatchQueue<T> w : watches) {
      w.schedule();
    }
  }

  @SuppressWarnings("unchecked")
  private static <T extends ApiObject<T>> Class<T> kindOf(T object) {
    return (Class<T>) object.getClass();
  }

  @SuppressWarnings("unchecked")
  private <T extends ApiObject<T>> KindTable<T> table(Class<T> kind) {
    return (KindTable<T>) tables.computeIfAbsent(kind, k -> new KindTable<>(kind));
  }

  @SuppressWarnings("unchecked")
  private <T extends ApiObject<T>> @Nullable KindTable<T> existingTable(Class<T> kind) {
    return (KindTable<T>) tables.get(kind);
  }

  private static NotFoundException notFound(ApiObject<?> object) {
    return new NotFoundException(object.describe() + " not found");
  }

  private static NotFoundException notFound(Class<?> kind, String namespace, String name) {
    return WriteRules.notFound(kind, namespace, name);
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("object store is closed");
    }
  }

  private static final class DaemonThreads implements ThreadFactory {
    private static final AtomicInteger COUNT = new AtomicInteger();

    @Override
    public Thread newThread(Runnable r) {
      Thread t = new Thread(r, "fleetkit-store-watch-" + COUNT.incrementAndGet());
      t.setDaemon(true);
      return t;
    }
  }
}
