package io.fleetkit.reconcile.internal;

import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.reconcile.RateLimiter;
import io.fleetkit.reconcile.RateLimitingQueue;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.metrics.WorkQueueMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * client-go's {@code workqueue.Type} + {@code delayingType} + {@code rateLimitingType} in one class.
 *
 * <p>State, all guarded by {@link #lock}: {@code queue} (FIFO of items to hand out), {@code dirty} (items that need
 * processing: everything in {@code queue} plus items re-added while processing), {@code processing} (handed out,
 * not yet done). An item is in {@code queue} only if it is dirty and not processing, so it is never handed out
 * twice at once. Delayed items sit in a heap ordered by ready time, deduplicated by {@code waitingByItem}; one
 * clock timer is armed for the earliest of them.
 *
 * <p>Why a lock and not JCTools: every operation must update the FIFO and the two sets atomically, which a
 * lock-free queue cannot give; the critical sections are a few hash operations, so a plain lock is cheap.
 */
public final class DefaultWorkQueue<T> implements RateLimitingQueue<T> {
  private final TimerClock clock;
  private final RateLimiter<T> limiter;

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<T> queue = new ArrayDeque<>();
  private final Set<T> dirty = new HashSet<>();
  private final Set<T> processing = new HashSet<>();
  private boolean shuttingDown;
  private boolean drain;

  private final PriorityQueue<Waiting<T>> waiting = new PriorityQueue<>();
  private final Map<T, Waiting<T>> waitingByItem = new HashMap<>();
  private long sequence;
  private TimerClock.@Nullable Timer timer;
  private @Nullable Instant timerDue;
  /** Null when no metrics are recorded (no registry or no name): the hooks below then cost one null check. */
  private final @Nullable QueueMetrics<T> metrics;
  private TimerClock.@Nullable Timer metricsTicker;

  public DefaultWorkQueue(TimerClock clock, RateLimiter<T> limiter) {
    this(clock, limiter, "", MetricsRegistry.NOOP);
  }

  /**
   * A queue whose metrics ({@link WorkQueueMetrics}) are recorded into {@code registry} under {@code name}; an
   * empty name records nothing, as in client-go.
   */
  public DefaultWorkQueue(TimerClock clock, RateLimiter<T> limiter, String name, MetricsRegistry registry) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.limiter = Objects.requireNonNull(limiter, "limiter");
    this.metrics = QueueMetrics.of(Objects.requireNonNull(registry, "registry"), Objects.requireNonNull(name,
        "name"));
    if (metrics != null) {
      lock.lock();
      try {
        armMetricsTickerLocked();
      } finally {
        lock.unlock();
      }
    }
  }

  private void armMetricsTickerLocked() {
    metricsTicker = clock.schedule(WorkQueueMetrics.UNFINISHED_WORK_UPDATE_PERIOD, () -> {
      lock.lock();
      try {
        if (!shuttingDown && metrics != null) {
          metrics.updateUnfinishedWork(clock.now());
          armMetricsTickerLocked();
        }
      } finally {
        lock.unlock();
      }
    });
  }

  @Override
  public void add(T item) {
    Objects.requireNonNull(item, "item");
    lock.lock();
    try {
      addLocked(item);
    } finally {
      lock.unlock();
    }
  }

  private void addLocked(T item) {
    if (shuttingDown || !dirty.add(item)) {
      return;
    }
    if (metrics != null) {
      metrics.add(item, clock.now());
    }
    if (processing.contains(item)) {
      return; // Done() will queue it
    }
    queue.addLast(item);
    changed.signal();
  }

  @Override
  public int len() {
    lock.lock();
    try {
      return queue.size();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<T> get() throws InterruptedException {
    lock.lock();
    try {
      while (queue.isEmpty() && !shuttingDown) {
        changed.await();
      }
      return Optional.ofNullable(takeLocked());
    } finally {
      lock.unlock();
    }
  }

  @Override
  public Optional<T> poll() {
    lock.lock();
    try {
      return Optional.ofNullable(takeLocked());
    } finally {
      lock.unlock();
    }
  }

  private @Nullable T takeLocked() {
    T item = queue.pollFirst();
    if (item == null) {
      return null;
    }
    processing.add(item);
    dirty.remove(item);
    if (metrics != null) {
      metrics.get(item, clock.now());
    }
    return item;
  }

  @Override
  public void done(T item) {
    Objects.requireNonNull(item, "item");
    lock.lock();
    try {
      if (processing.remove(item) && metrics != null) {
        metrics.done(item, clock.now());
      }
      if (dirty.contains(item)) {
        queue.addLast(item);
      }
      // wakes a getter for the re-queued item, or a shutDownWithDrain waiting for processing to empty
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDown() {
    lock.lock();
    try {
      shuttingDown = true;
      drain = false;
      cancelTimerLocked();
      cancelMetricsTickerLocked();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void shutDownWithDrain() throws InterruptedException {
    lock.lock();
    try {
      shuttingDown = true;
      drain = true;
      cancelTimerLocked();
      cancelMetricsTickerLocked();
      changed.signalAll();
      while (!processing.isEmpty() && drain) {
        changed.await();
      }
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean isShuttingDown() {
    lock.lock();
    try {
      return shuttingDown;
    } finally {
      lock.unlock();
    }
  }

  // ---- delaying ----

  @Override
  public void addAfter(T item, Duration delay) {
    Objects.requireNonNull(item, "item");
    Objects.requireNonNull(delay, "delay");
    lock.lock();
    try {
      if (shuttingDown) {
        return;
      }
      if (metrics != null) {
        metrics.retry();
      }
      if (delay.isZero() || delay.isNegative()) {
        addLocked(item);
        return;
      }
      Instant readyAt = clock.now().plus(delay);
      Waiting<T> existing = waitingByItem.get(item);
      if (existing != null) {
        if (!readyAt.isBefore(existing.readyAt)) {
          return; // the earlier time wins
        }
        waiting.remove(existing);
      }
      Waiting<T> w = new Waiting<>(item, readyAt, sequence++);
      waitingByItem.put(item, w);
      waiting.add(w);
      armTimerLocked();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public int waitingLen() {
    lock.lock();
    try {
      return waiting.size();
    } finally {
      lock.unlock();
    }
  }

  private void armTimerLocked() {
    Waiting<T> head = waiting.peek();
    if (head == null || shuttingDown) {
      cancelTimerLocked();
      return;
    }
    if (timer != null && timerDue != null && !head.readyAt.isBefore(timerDue)) {
      return; // the armed timer fires first and re-arms
    }
    cancelTimerLocked();
    timerDue = head.readyAt;
    timer = clock.schedule(Duration.between(clock.now(), head.readyAt), this::releaseDue);
  }

  private void cancelMetricsTickerLocked() {
    if (metricsTicker != null) {
      metricsTicker.cancel();
      metricsTicker = null;
    }
  }

  private void cancelTimerLocked() {
    if (timer != null) {
      timer.cancel();
      timer = null;
      timerDue = null;
    }
  }

  private void releaseDue() {
    lock.lock();
    try {
      timer = null;
      timerDue = null;
      Instant now = clock.now();
      Waiting<T> head;
      while ((head = waiting.peek()) != null && !head.readyAt.isAfter(now)) {
        waiting.poll();
        waitingByItem.remove(head.item);
        addLocked(head.item);
      }
      armTimerLocked();
    } finally {
      lock.unlock();
    }
  }

  // ---- rate limiting ----

  @Override
  public void addRateLimited(T item) {
    addAfter(item, limiter.when(item));
  }

  @Override
  public void forget(T item) {
    limiter.forget(item);
  }

  @Override
  public int numRequeues(T item) {
    return limiter.numRequeues(item);
  }

  @Override
  public String toString() {
    lock.lock();
    try {
      return "WorkQueue{queued=" + queue.size() + ", processing=" + processing.size() + ", waiting="
          + waiting.size() + (shuttingDown ? ", shutting down}" : "}");
    } finally {
      lock.unlock();
    }
  }

  private record Waiting<T>(T item, Instant readyAt, long seq) implements Comparable<Waiting<T>> {
    @Override
    public int compareTo(Waiting<T> o) {
      int c = readyAt.compareTo(o.readyAt);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }
}
