package io.fleetkit.api.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.Optional;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * A UTC clock that stands still until told to move, with timers: the basis of deterministic simulations and tests. It
 * is both a {@link java.time.Clock} (for code that only reads the time: the object store, the scheduler) and a
 * {@link TimerClock} (for code that also runs things later: work queues, informers, simulated nodes).
 * {@link #advance}, {@link #advanceTo} and {@link #set} walk time forward task by task: each due task runs on the
 * calling thread with the clock set to that task's deadline, in deadline order (ties in scheduling order), including
 * tasks that due tasks schedule within the window; then the clock is at the target.
 *
 * <p>Thread-safe: any thread may read the time or schedule, and readers always see the latest instant; tasks run
 * outside the clock's lock, so they may schedule more tasks. Only one thread should move the clock at a time
 * (concurrent moves are serialised).
 */
public final class ManualClock extends Clock implements TimerClock {
  private final Object lock = new Object();
  private final Object advanceLock = new Object();
  private final PriorityQueue<Entry> tasks = new PriorityQueue<>();
  private volatile Instant now;
  private long sequence;

  /** A clock at {@code start}. */
  public ManualClock(Instant start) {
    this.now = Objects.requireNonNull(start, "start");
  }

  /** A clock starting at 2026-01-01T00:00:00Z. */
  public static ManualClock atEpoch2026() {
    return new ManualClock(Instant.parse("2026-01-01T00:00:00Z"));
  }

  @Override
  public Instant instant() {
    return now;
  }

  @Override
  public Instant now() {
    return now;
  }

  /** This clock itself. */
  @Override
  public Clock asClock() {
    return this;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  /** This clock (it is always UTC; the zone only matters for formatting). */
  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(task, "task");
    synchronized (lock) {
      Instant due = delay.isNegative() ? now : now.plus(delay);
      Entry e = new Entry(due, sequence++, task);
      tasks.add(e);
      return e;
    }
  }

  /**
   * Moves the clock forward by {@code d}, running every task that falls due on the way.
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public void advance(Duration d) {
    Objects.requireNonNull(d, "d");
    if (d.isNegative()) {
      throw new IllegalArgumentException("manual clock: advance " + d + " must not be negative");
    }
    synchronized (advanceLock) {
      advanceTo(now.plus(d));
    }
  }

  /**
   * Moves the clock forward to {@code target}, running every task due at or before it.
   *
   * @throws IllegalArgumentException if {@code target} is before the current instant (time never goes back)
   */
  public void advanceTo(Instant target) {
    Objects.requireNonNull(target, "target");
    synchronized (advanceLock) {
      if (target.isBefore(now)) {
        throw new IllegalArgumentException("manual clock: " + target + " is before the current " + now);
      }
      while (true) {
        Entry next;
        synchronized (lock) {
          next = tasks.peek();
          if (next == null || next.due.isAfter(target)) {
            now = target;
            return;
          }
          tasks.poll();
          if (next.due.isAfter(now)) {
            now = next.due;
          }
        }
        next.run();
      }
    }
  }

  /**
   * Sets the clock to {@code instant}: {@link #advanceTo}.
   *
   * @throws IllegalArgumentException if {@code instant} is before the current instant (time never goes back)
   */
  public void set(Instant instant) {
    advanceTo(instant);
  }

  /** Runs the tasks due now (scheduled with a zero delay) without moving time. */
  public void runDueTasks() {
    advanceTo(now);
  }

  /** The deadline of the earliest pending task, if any: where a simulation jumps to next. */
  public Optional<Instant> nextDeadline() {
    synchronized (lock) {
      Entry e = tasks.peek();
      return e == null ? Optional.empty() : Optional.of(e.due);
    }
  }

  /** How many tasks are scheduled and not yet run or cancelled. */
  public int pendingTasks() {
    synchronized (lock) {
      return tasks.size();
    }
  }

  @Override
  public String toString() {
    return "ManualClock(" + now + ")";
  }

  private final class Entry implements Comparable<Entry>, Timer {
    final Instant due;
    final long seq;
    @Nullable Runnable task;

    Entry(Instant due, long seq, Runnable task) {
      this.due = due;
      this.seq = seq;
      this.task = task;
    }

    void run() {
      Runnable r;
      synchronized (lock) {
        r = task;
        task = null;
      }
      if (r != null) {
        r.run();
      }
    }

    @Override
    public boolean cancel() {
      synchronized (lock) {
        if (task == null) {
          return false;
        }
        task = null;
        tasks.remove(this);
        return true;
      }
    }

    @Override
    public int compareTo(Entry o) {
      int c = due.compareTo(o.due);
      return c != 0 ? c : Long.compare(seq, o.seq);
    }
  }
}
