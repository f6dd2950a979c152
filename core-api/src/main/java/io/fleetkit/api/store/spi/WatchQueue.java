package io.fleetkit.api.store.spi;

import io.fleetkit.api.ExpiredException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.Watch;
import io.fleetkit.api.store.WatchEvent;
import io.fleetkit.api.store.WatchListener;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch of an {@link io.fleetkit.api.store.ObjectStore}: an ordered queue of events and the listener they go to,
 * with the delivery rules of the store contract. The store appends events in resourceVersion order
 * ({@link #enqueue}), then calls {@link #schedule()}, which makes sure exactly one drain task is running or submitted
 * on the delivery executor, so listener calls never overlap and never reorder. With a direct executor
 * ({@code Runnable::run}) the drain runs on the calling thread; an event appended by the listener itself then only
 * queues, and the drain already running delivers it after the current event (no nesting). A listener that throws is
 * logged at WARN and the watch goes on.
 *
 * <p>The queue is bounded: an event that would make it hold more than {@code limit} undelivered events ends the
 * watch instead (the API server's treatment of a slow watcher). Events queued before are still delivered, then the
 * listener's {@link WatchListener#onExpired} is called once and the watch closes. A store may also end a watch for
 * its own reasons ({@link #expire}, e.g. its history was compacted), by the same path.
 *
 * <p>Thread-safe: {@link #enqueue} calls must be ordered by the caller (one at a time, in resourceVersion order);
 * every other method may be called from any thread.
 *
 * @param <T> the kind
 */
public final class WatchQueue<T extends ApiObject<T>> implements Watch {
  private static final Logger LOG = LoggerFactory.getLogger(WatchQueue.class);

  private final Class<T> kind;
  private final WatchListener<T> listener;
  private final Executor executor;
  private final int limit;
  private final Consumer<WatchQueue<T>> onClose;
  private final ConcurrentLinkedQueue<WatchEvent<T>> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean draining = new AtomicBoolean();
  private final AtomicInteger pending = new AtomicInteger();
  /** The drain task, made once: a direct executor runs it for every event of every watch. */
  private final Runnable drainTask = this::drain;
  private volatile boolean closed;
  /** Set when the watch is to end after the events queued so far; the drain then tells the listener. */
  private volatile @Nullable ExpiredException expired;

  /**
   * @param kind the kind watched, named in log lines and messages
   * @param executor runs the drain task; {@code Runnable::run} delivers on the thread that calls {@link #schedule()}
   * @param limit the most undelivered events the queue holds before the watch ends as too old
   * @param onClose called once when the watch is closed by {@link #close()} (not by {@link #closeQuietly()}), for
   *     the store to forget it
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  public WatchQueue(Class<T> kind, WatchListener<T> listener, Executor executor, int limit,
      Consumer<WatchQueue<T>> onClose) {
    this.kind = Objects.requireNonNull(kind, "kind");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.executor = Objects.requireNonNull(executor, "executor");
    if (limit < 1) {
      throw new IllegalArgumentException("watchQueueLimit must be at least 1 but was " + limit);
    }
    this.limit = limit;
    this.onClose = Objects.requireNonNull(onClose, "onClose");
  }

  /** The kind watched. */
  public Class<T> kind() {
    return kind;
  }

  /**
   * Appends an event, in resourceVersion order. When the queue is full the event is not queued and the watch is
   * marked to end ("too old resource version") after the events before it.
   */
  public void enqueue(WatchEvent<T> event) {
    if (expired != null || closed) {
      return;
    }
    if (pending.incrementAndGet() > limit) {
      pending.decrementAndGet();
      expired = new ExpiredException("too old resource version: " + event.resourceVersion() + " (the watch on "
          + kind.getSimpleName() + " fell more than " + limit + " events behind and was ended; relist)");
      LOG.warn("watch on {}: listener fell more than {} events behind at resourceVersion {}; watch ended",
          kind.getSimpleName(), limit, event.resourceVersion());
      return;
    }
    queue.add(event);
  }

  /**
   * Ends the watch after the events queued so far: they are delivered, then {@link WatchListener#onExpired} gets
   * {@code cause} and the watch closes. Later events are dropped. Only the first end counts. Call
   * {@link #schedule()} afterwards.
   */
  public void expire(ExpiredException cause) {
    Objects.requireNonNull(cause, "cause");
    if (expired == null && !closed) {
      expired = cause;
    }
  }

  /** Ensures a drain is running or submitted. Call it outside any store lock. */
  public void schedule() {
    if (closed || (queue.isEmpty() && expired == null) || !draining.compareAndSet(false, true)) {
      return;
    }
    try {
      executor.execute(drainTask);
    } catch (RejectedExecutionException e) {
      draining.set(false);
      LOG.warn("watch on {}: delivery executor rejected the drain task; {} events stay queued",
          kind.getSimpleName(), queue.size(), e);
    }
  }

  /**
   * Whether everything enqueued so far has been handed to the listener and no listener call is running (or the
   * watch is closed).
   */
  public boolean isIdle() {
    return closed || (pending.get() == 0 && !draining.get() && expired == null);
  }

  private void drain() {
    try {
      while (true) {
        WatchEvent<T> event;
        while (!closed && (event = queue.poll()) != null) {
          pending.decrementAndGet();
          deliver(event);
        }
        if (!closed && expired != null && queue.isEmpty()) {
          end();
        }
        draining.set(false);
        // An event appended after the last poll but before the flag was cleared saw "draining" and left it to us.
        if (closed || (queue.isEmpty() && expired == null) || !draining.compareAndSet(false, true)) {
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
          kind.getSimpleName(), event, t);
    }
  }

  /** Ends the watch: closes it, then tells the listener (once). */
  private void end() {
    ExpiredException cause = Objects.requireNonNull(expired);
    close();
    try {
      listener.onExpired(cause);
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable t) {
      LOG.warn("watch listener on {} failed in onExpired", kind.getSimpleName(), t);
    }
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    onClose.accept(this);
    queue.clear();
  }

  /** Marks the watch closed without calling {@code onClose} (the store is closing and drops all watches). */
  public void closeQuietly() {
    closed = true;
    queue.clear();
  }

  @Override
  public boolean isClosed() {
    return closed;
  }

  @Override
  public String toString() {
    return "Watch{" + kind.getSimpleName() + ", queued=" + pending.get() + (closed ? ", closed}" : "}");
  }
}
