package io.fleetkit.reconcile.internal;

import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ListResult;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchListener;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * List + watch + cache + dispatch. Every cache mutation and the handler calls it causes happen under
 * {@link #dispatch}, so handlers of one informer never run concurrently and see events in order, whichever
 * thread delivers them (caller for lists, store delivery for watch events, clock timer for resyncs).
 */
public final class DefaultInformer<T extends ApiObject<T>> implements Informer<T> {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultInformer.class);
  /** Relists in a row after which start() gives up (the store keeps expiring the list's version). */
  private static final int MAX_RELISTS = 100;

  private final ObjectStore store;
  private final Class<T> kind;
  private final String namespace;
  private final Duration resyncPeriod;
  private final TimerClock clock;
  private final IndexedCache<T> cache;
  private final List<ResourceEventHandler<T>> handlers = new CopyOnWriteArrayList<>();
  private final ReentrantLock dispatch = new ReentrantLock();
  private final CompletableFuture<Void> synced = new CompletableFuture<>();

  private boolean started;
  private volatile boolean closed;
  private volatile String lastSyncResourceVersion = "";
  private volatile int listCount;
  private @Nullable Watch watch;
  private TimerClock.@Nullable Timer resyncTimer;

  public DefaultInformer(ObjectStore store, Class<T> kind, String namespace, Duration resyncPeriod,
      TimerClock clock, Map<String, Function<? super T, ? extends Collection<String>>> indexers) {
    this.store = store;
    this.kind = kind;
    this.namespace = namespace;
    this.resyncPeriod = resyncPeriod;
    this.clock = clock;
    this.cache = new IndexedCache<>(indexers);
  }

  @Override
  public Class<T> kind() {
    return kind;
  }

  @Override
  public void addEventHandler(ResourceEventHandler<T> handler) {
    java.util.Objects.requireNonNull(handler, "handler");
    dispatch.lock();
    try {
      handlers.add(handler);
      if (started) {
        for (T o : cache.list()) {
          call(handler, h -> h.onAdd(o), "add", o);
        }
      }
    } finally {
      dispatch.unlock();
    }
  }

  /**
   * Removes {@code handler} (compared by identity); it receives no further calls once this returns. For a
   * {@linkplain io.fleetkit.reconcile.SharedInformers shared informer}'s user that closes.
   */
  public void removeEventHandler(ResourceEventHandler<T> handler) {
    dispatch.lock();
    try {
      handlers.removeIf(h -> h == handler);
    } finally {
      dispatch.unlock();
    }
  }

  /**
   * Adds the index {@code name} to the cache (built on its first read).
   *
   * @throws IllegalStateException if an index of that name exists
   */
  public void addIndexer(String name, Function<? super T, ? extends Collection<String>> indexer) {
    cache.addIndexer(name, indexer);
  }

  @Override
  public CompletableFuture<Void> start() {
    dispatch.lock();
    try {
      if (closed) {
        throw new IllegalStateException("informer " + kind.getSimpleName() + " is closed");
      }
      if (started) {
        return synced;
      }
      started = true;
    } finally {
      dispatch.unlock();
    }
    try {
      listAndWatch();
      synced.complete(null);
      scheduleResync();
    } catch (RuntimeException e) {
      LOG.warn("informer {}: start failed", kind.getSimpleName(), e);
      synced.completeExceptionally(e);
    }
    return synced;
  }

  private void listAndWatch() {
    for (int attempt = 0; ; attempt++) {
      ListResult<T> list = store.list(kind, namespace);
      applyList(list);
      try {
        Watch w = store.watch(kind, list.resourceVersion(), new WatchListener<T>() {
          @Override
          public void onEvent(WatchEvent<T> event) {
            DefaultInformer.this.onEvent(event);
          }

          @Override
          public void onExpired(ExpiredException cause) {
            relistAfterExpiry(cause);
          }
        });
        dispatch.lock();
        try {
          if (closed) {
            w.close();
          } else {
            watch = w;
          }
        } finally {
          dispatch.unlock();
        }
        return;
      } catch (ExpiredException e) {
        if (attempt >= MAX_RELISTS) {
          throw e;
        }
        LOG.info("informer {}: watch from resourceVersion {} expired ({}); relisting", kind.getSimpleName(),
            list.resourceVersion(), e.getMessage());
      }
    }
  }

  /**
   * The store ended the watch because delivery fell too far behind: relist and watch again (client-go's reflector
   * does the same on a watch that ends with 410 Gone). Runs on the delivery path of the ended watch.
   */
  private void relistAfterExpiry(ExpiredException cause) {
    if (closed) {
      return;
    }
    LOG.info("informer {}: watch ended ({}); relisting", kind.getSimpleName(), cause.getMessage());
    try {
      listAndWatch();
    } catch (RuntimeException e) {
      LOG.warn("informer {}: relist after the watch ended failed; the cache stays at resourceVersion {}",
          kind.getSimpleName(), lastSyncResourceVersion, e);
    }
  }

  /** Replaces the cache with a list, telling handlers the difference (client-go's Replace). */
  private void applyList(ListResult<T> list) {
    dispatch.lock();
    try {
      if (closed) {
        return;
      }
      listCount++;
      Map<String, T> fresh = new HashMap<>();
      for (T o : list.items()) {
        fresh.put(o.metadata().key(), o);
      }
      for (T cached : cache.list()) {
        String key = cached.metadata().key();
        if (!fresh.containsKey(key)) {
          cache.remove(key);
          fire(h -> h.onDelete(cached, true), "delete", cached);
        }
      }
      for (T o : list.items()) {
        T old = cache.put(o);
        if (old == null) {
          fire(h -> h.onAdd(o), "add", o);
        } else if (!old.metadata().resourceVersion().equals(o.metadata().resourceVersion())) {
          fire(h -> h.onUpdate(old, o), "update", o);
        }
      }
      lastSyncResourceVersion = list.resourceVersion();
    } finally {
      dispatch.unlock();
    }
  }

  private void onEvent(WatchEvent<T> event) {
    T o = event.object();
    if (!namespace.isEmpty() && !namespace.equals(o.metadata().namespace())) {
      return;
    }
    dispatch.lock();
    try {
      if (closed) {
        return;
      }
      switch (event.type()) {
        case ADDED, MODIFIED -> {
          T old = cache.put(o);
          if (old == null) {
            fire(h -> h.onAdd(o), "add", o);
          } else {
            fire(h -> h.onUpdate(old, o), "update", o);
          }
        }
        case DELETED -> {
          cache.removeAt(o.metadata());
          fire(h -> h.onDelete(o, false), "delete", o);
        }
      }
      lastSyncResourceVersion = event.resourceVersion();
    } finally {
      dispatch.unlock();
    }
  }

  private void scheduleResync() {
    if (resyncPeriod.isZero()) {
      return;
    }
    dispatch.lock();
    try {
      if (!closed) {
        resyncTimer = clock.schedule(resyncPeriod, this::resync);
      }
    } finally {
      dispatch.unlock();
    }
  }

  private void resync() {
    dispatch.lock();
    try {
      if (closed) {
        return;
      }
      for (T o : cache.list()) {
        fire(h -> h.onUpdate(o, o), "resync", o);
      }
    } finally {
      dispatch.unlock();
    }
    scheduleResync();
  }

  private void fire(Consumer<ResourceEventHandler<T>> call, String what, T object) {
    for (ResourceEventHandler<T> h : handlers) {
      call(h, call, what, object);
    }
  }

  private void call(ResourceEventHandler<T> h, Consumer<ResourceEventHandler<T>> call, String what, T object) {
    try {
      call.accept(h);
    } catch (RuntimeException e) {
      LOG.warn("informer {}: handler {} failed on {} of {}", kind.getSimpleName(), h, what, object.describe(), e);
    }
  }

  @Override
  public boolean hasSynced() {
    return synced.isDone() && !synced.isCompletedExceptionally();
  }

  @Override
  public Lister<T> lister() {
    return cache;
  }

  @Override
  public String lastSyncResourceVersion() {
    return lastSyncResourceVersion;
  }

  @Override
  public int listCount() {
    return listCount;
  }

  @Override
  public void close() {
    dispatch.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      if (watch != null) {
        watch.close();
      }
      if (resyncTimer != null) {
        resyncTimer.cancel();
      }
    } finally {
      dispatch.unlock();
    }
  }

  @Override
  public String toString() {
    return "Informer{" + kind.getSimpleName() + (namespace.isEmpty() ? "" : " in " + namespace) + ", cached="
        + cache.size() + "}";
  }
}
