package io.fleetkit.store.etcd.internal;

import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.common.exception.CompactedException;
import io.etcd.jetcd.watch.WatchResponse;
import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.store.WatchListener;
import io.fleetkit.api.store.spi.WatchQueue;
import io.fleetkit.api.store.spi.WriteRules;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch of the etcd store: receives jetcd's responses (on jetcd's threads), turns etcd events into store events
 * and queues them on a {@link WatchQueue}, which delivers them on the store's executor. A put of a key at version 1
 * is ADDED, a later put MODIFIED, a delete DELETED with the previous value stamped with the deletion's revision.
 * jetcd reconnects a broken watch by itself from the revision after the last event; if etcd has compacted that
 * revision meanwhile, the watch ends with "too old resource version" and the listener relists.
 */
final class EtcdWatch<T extends ApiObject<T>> implements io.etcd.jetcd.Watch.Listener, Watch {
  private static final Logger LOG = LoggerFactory.getLogger(EtcdWatch.class);

  private final EtcdObjectStore store;
  private final Class<T> kind;
  private final WatchQueue<T> queue;
  private final CompletableFuture<Long> compaction = new CompletableFuture<>();
  private volatile io.etcd.jetcd.Watch.@Nullable Watcher watcher;
  private volatile boolean started;
  private volatile boolean closing;
  /** The etcd revision of the last event handed to the listener (or the revision before the start). */
  private volatile long delivered;
  /** The etcd revision of the last event received from etcd. */
  private volatile long received;

  EtcdWatch(EtcdObjectStore store, Class<T> kind, WatchListener<T> listener, Executor executor, int limit,
      long startedAfter) {
    this.store = store;
    this.kind = kind;
    this.delivered = startedAfter;
    this.received = startedAfter;
    this.queue = new WatchQueue<>(kind, new Delivering(listener), executor, limit, q -> stop());
  }

  void attach(io.etcd.jetcd.Watch.Watcher w) {
    watcher = w;
  }

  /** The start revision was not compacted: from now on a compaction ends the watch through the listener. */
  void started() {
    started = true;
    if (compaction.isDone()) {
      expireCompacted(compaction.getNow(0L));
    }
  }

  Class<T> kind() {
    return kind;
  }

  long deliveredRevision() {
    return delivered;
  }

  /** Waits for etcd's report of the compaction that refused the start revision; 0 if none came in time. */
  long awaitCompaction(Duration timeout) {
    try {
      return compaction.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException | ExecutionException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  // ------------------------------------------------------------------------------------- jetcd's callbacks

  /**
   * Direct mode: waits until the replay up to revision {@code now} has been received and delivered. etcd sends a
   * watch's backlog in responses whose header revision says how far it has got (etcd 3.4 answers progress requests
   * before the backlog, so they cannot tell).
   */
  void awaitCaughtUp(long now, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!isClosed() && System.nanoTime() < deadline) {
      if (received >= now && queue.isIdle()) {
        return;
      }
      try {
        Thread.sleep(2);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  @Override
  public void onNext(WatchResponse response) {
    long last = 0;
    for (io.etcd.jetcd.watch.WatchEvent e : response.getEvents()) {
      KeyValue kv = e.getKeyValue();
      last = Math.max(last, kv.getModRevision());
      try {
        switch (e.getEventType()) {
          case PUT -> queue.enqueue(new WatchEvent<>(kv.getVersion() == 1 ? WatchEventType.ADDED
              : WatchEventType.MODIFIED, store.decode(kv, kind)));
          case DELETE -> {
            KeyValue prev = e.getPrevKV();
            if (prev == null || prev.getValue().isEmpty()) {
              LOG.warn("watch on {}: etcd reported the deletion of {} at revision {} without its last value;"
                  + " the event is skipped", kind.getSimpleName(), kv.getKey(), kv.getModRevision());
            } else {
              T lastState = store.decode(prev, kind);
              queue.enqueue(new WatchEvent<>(WatchEventType.DELETED,
                  WriteRules.withVersion(lastState, store.version(kv.getModRevision()))));
            }
          }
          default -> LOG.warn("watch on {}: unknown etcd event type {} skipped", kind.getSimpleName(),
              e.getEventType());
        }
      } catch (FleetKitException bad) {
        LOG.warn("watch on {}: skipped an event: {}", kind.getSimpleName(), bad.getMessage());
      }
    }
    // Only now, with the events queued, may awaitCaughtUp see them as received. The header revision is how far
    // etcd has looked for this watch (its backlog is sent up to the store's revision at the time).
    received = Math.max(received, Math.max(last, response.getEvents().isEmpty() ? 0
        : response.getHeader().getRevision()));
    queue.schedule();
  }

  @Override
  public void onError(Throwable t) {
    if (t instanceof CompactedException c) {
      compaction.complete(c.getCompactedRevision());
      if (started) {
        expireCompacted(c.getCompactedRevision());
      }
      return;
    }
    // jetcd resumes the watch by itself after transient errors, from the revision after the last event.
    LOG.warn("watch on {}: etcd connection trouble ({}); resuming after revision {}", kind.getSimpleName(),
        t.getMessage(), received);
  }

  @Override
  public void onCompleted() {
    if (closing || queue.isClosed()) {
      return;
    }
    // etcd or jetcd ended the watch for good (not a transient error): the listener must relist.
    queue.expire(new ExpiredException("too old resource version: " + store.version(received)
        + " (the etcd watch on " + kind.getSimpleName() + " ended; relist)"));
    queue.schedule();
  }

  private void expireCompacted(long compactRevision) {
    queue.expire(new ExpiredException("too old resource version: " + store.version(received) + " ("
        + store.version(compactRevision - 1) + "; etcd compacted the history this watch needed; relist)"));
    queue.schedule();
  }

  // ---------------------------------------------------------------------------------------------------- Watch

  @Override
  public void close() {
    queue.close();
  }

  /** Closes without delivering anything more (the store is closing, or the watch never started). */
  void closeQuietly() {
    queue.closeQuietly();
    stop();
  }

  private void stop() {
    closing = true;
    io.etcd.jetcd.Watch.Watcher w = watcher;
    if (w != null) {
      try {
        w.close();
      } catch (RuntimeException e) {
        LOG.debug("watch on {}: closing the etcd watcher failed", kind.getSimpleName(), e);
      }
    }
    store.forget(this);
  }

  @Override
  public boolean isClosed() {
    return queue.isClosed();
  }

  @Override
  public String toString() {
    return queue.toString();
  }

  /** Marks listener calls (their writes must not wait for delivery) and records progress for direct mode. */
  private final class Delivering implements WatchListener<T> {
    private final WatchListener<T> listener;

    Delivering(WatchListener<T> listener) {
      this.listener = listener;
    }

    @Override
    public void onEvent(WatchEvent<T> event) {
      EtcdObjectStore.IN_LISTENER.set(Boolean.TRUE);
      try {
        listener.onEvent(event);
      } finally {
        EtcdObjectStore.IN_LISTENER.set(Boolean.FALSE);
        delivered = Long.parseLong(event.resourceVersion()) + store.offset();
        store.delivered();
      }
    }

    @Override
    public void onExpired(ExpiredException cause) {
      EtcdObjectStore.IN_LISTENER.set(Boolean.TRUE);
      try {
        listener.onExpired(cause);
      } finally {
        EtcdObjectStore.IN_LISTENER.set(Boolean.FALSE);
        store.delivered();
      }
    }
  }
}
