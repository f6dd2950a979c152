package io.fleetkit.reconcile;

import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.DefaultWorkQueue;
import java.time.Duration;
import java.util.Optional;

/**
 * A work queue with the semantics of client-go's {@code workqueue.Interface}:
 * <ul>
 *   <li><b>Fair:</b> items are handed out in the order they were added.</li>
 *   <li><b>Stingy:</b> an item added several times before it is handed out is held, and processed, once.</li>
 *   <li><b>Never concurrent:</b> an item handed out by {@link #get()} is "processing" until {@link #done}; adding it
 *       meanwhile marks it dirty, and {@code done} puts it back in the queue, so it is processed exactly once more
 *       afterwards and never by two workers at the same time.</li>
 *   <li><b>Shut down</b> with {@link #shutDown()} (workers stop as soon as the queue is empty; adds are ignored)
 *       or {@link #shutDownWithDrain()} (also waits until every handed-out item is done).</li>
 * </ul>
 * Create one with {@link #create()}; see {@link DelayingQueue} and {@link RateLimitingQueue} for timed adds.
 * Items are compared by {@code equals}/{@code hashCode} and should be immutable (keys, not objects).
 *
 * <p>Thread-safe; {@link #get()} blocks, every other method returns promptly (except {@code shutDownWithDrain}).
 *
 * @param <T> the item type
 */
public interface WorkQueue<T> {

  /** A plain work queue. */
  static <T> WorkQueue<T> create() {
    return new DefaultWorkQueue<>(TimerClock.system(), RateLimiters.itemExponential(Duration.ZERO,
        Duration.ZERO));
  }

  /** Marks {@code item} as needing processing; a no-op if it already does or the queue is shutting down. */
  void add(T item);

  /** How many items wait to be handed out (not counting processing or delayed ones). */
  int len();

  /**
   * Blocks until an item is available, marks it processing and returns it; returns empty once the queue is
   * shutting down and has no more items.
   *
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  Optional<T> get() throws InterruptedException;

  /**
   * Like {@link #get()} but never blocks: an item that is ready now, or empty. For single-threaded stepping.
   */
  Optional<T> poll();

  /** Marks {@code item} as processed; if it was added again meanwhile it goes back into the queue. */
  void done(T item);

  /** Makes {@link #get()} return empty once the queue is empty and ignores later adds. Does not wait. */
  void shutDown();

  /**
   * Like {@link #shutDown()} and then waits until every handed-out item is {@link #done} (a later
   * {@link #shutDown()} from another thread stops the wait). Workers must keep calling {@link #get()} and
   * {@link #done} for this to return.
   *
   * @throws InterruptedException if the calling thread is interrupted while waiting
   */
  void shutDownWithDrain() throws InterruptedException;

  /** Whether {@link #shutDown()} or {@link #shutDownWithDrain()} was called. */
  boolean isShuttingDown();
}
