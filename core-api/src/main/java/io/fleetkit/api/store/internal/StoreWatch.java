package io.fleetkit.api.store.internal;

import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchListener;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch: an ordered queue of events and a listener. The store appends to the queue under its write lock, so
 * queue order is resourceVersion order; {@link #schedule()} (called after the lock is released) makes sure
 * exactly one drain task is running or submitted, so listener calls never overlap and never reorder. With a
 * direct executor the drain runs on the calling thread; a write made by the listener then only appends, and the
 * drain already running delivers it after the current event (no nesting).
 *
 * <p>The queue is bounded: an event that would make it hold more than {@code limit} undelivered events ends the
 * watch instead (the API server's treatment of a slow watcher). Events queued before are still delivered, then the
 * listener's {@link WatchListener#onExpired} is called once and the watch closes.
 */
final class StoreWatch<T extends ApiObject<T>> implements Watch {
  private static final Logger LOG = LoggerFactory.getLogger(StoreWatch.class);

  private final InMemoryObjectStore store;
  private final KindTable<T> table;
  private final WatchListener<T> listener;
  private final Executor executor;
  private final ConcurrentLinkedQueue<WatchEvent<T>> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicInteger pending = new AtomicInteger();
  private final int limit;
  private volatile boolean closed;
  /** Set (under the store lock) when an event found the queue full; the drain then ends the watch. */
  private volatile @Nullable String expiredAt;

  StoreWatch(InMemoryObjectStore store, KindTable<T> table, WatchListener<T> listener, Executor executor,
      int limit) {
    this.store = store;
    this.table = table;
    this.listener = listener;
    this.executor = executor;
    this.limit = limit;
  }

  /**
   * Appends an event; the store calls this under its write lock, in resourceVersion order. When the queue is full
   * the event is not queued and the watch is marked to end after the events before it.
   */
  void enqueue(WatchEvent<T> event) {
    if (expiredAt != null || closed) {
      return;
    }
    if (pending.incrementAndGet() > limit) {
      pending.decrementAndGet();
      expiredAt = event.object().metadata().resourceVersion();
      return;
    }
    queue.add(event);
  }

  /** Ensures a drain is running or submitted. Called outside the store lock. */
  void schedule() {
    if (closed || (queue.isEmpty() && expiredAt == null) || !draining.compareAndSet(false, true)) {
      return;
    }
    try {
      executor.execute(this::drain);
    } catch (RejectedExecutionException e) {
      draining.set(false);
      LOG.warn("watch on {}: delivery executor rejected the drain task; {} events stay queued",
          table.kind.getSimpleName(), queue.size(), e);
    }
  }

  private void drain() {
    try {
      while (true) {
        WatchEvent<T> event;
        while (!closed && (event = queue.poll()) != null) {
          pending.decrementAndGet();
          deliver(event);
        }
        if (!closed && expiredAt != null && queue.isEmpty()) {
          expire();
        }
        draining.set(false);
        // An event appended after the last poll but before the flag was cleared saw "draining" and left it to us.
        if (closed || (queue.isEmpty() && expiredAt == null) || !draining.compareAndSet(false, true)) {
          return;
        }
      }
    } catch (RuntimeException | Error e) {
      // deliver() only lets VirtualMachineErrors through; do not leave the watch stuck behind a set flag.
      draining.set(false);
      throw e;
    }
  }

  private void deliver(WatchEvent<T> event) {
    try {
      listener.onEvent(event);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      LOG.warn("watch listener on {} failed on {}; the watch continues with the next event",
          table.kind.getSimpleName(), event, t);
    }
  }

  /** Ends a watch that fell behind: closes it, then tells the listener (once). */
  private void expire() {
    ExpiredException cause = new ExpiredException("too old resource version: " + expiredAt + " (the watch on "
        + table.kind.getSimpleName() + " fell more than " + limit + " events behind and was ended; relist)");
    LOG.warn("watch on {}: listener fell more than {} events behind at resourceVersion {}; watch ended",
        table.kind.getSimpleName(), limit, expiredAt);
    close();
    try {
      listener.onExpired(cause);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      LOG.warn("watch listener on {} failed in onExpired", table.kind.getSimpleName(), t);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    store.removeWatch(table, this);
    queue.clear();
  }

  /** Marks closed without touching the store (the store is closing and drops its tables). */
  void closeQuietly() {
    closed = true;
    queue.clear();
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public String toString() {
    return "Watch{" + table.kind.getSimpleName() + ", queued=" + pending.get() + (closed ? ", closed}" : "}");
  }
}
