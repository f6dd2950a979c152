package io.fleetkit.api.time;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The wall clock with one shared daemon timer thread, created when {@link TimerClock#system()} is first called. Tasks
 * must be short; a task that throws is logged.
 */
final class SystemTimerClock implements TimerClock {
  private static final Logger LOG = LoggerFactory.getLogger(SystemTimerClock.class);

  /** Holds the one instance; loading it starts the timer thread. */
  private static final class Holder {
    static final SystemTimerClock INSTANCE = new SystemTimerClock();
  }

  private final ScheduledThreadPoolExecutor timer;

  private SystemTimerClock() {
    timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "fleetkit-timer");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
  }

  static SystemTimerClock instance() {
    return Holder.INSTANCE;
  }

  @Override
  public Instant now() {
    return Instant.now();
  }

  @Override
  public Timer schedule(Duration delay, Runnable task) {
    Objects.requireNonNull(delay, "delay");
    Objects.requireNonNull(task, "task");
    long nanos = delay.isNegative() ? 0 : saturatedNanos(delay);
    ScheduledFuture<?> f = timer.schedule(() -> {
      try {
        task.run();
      } catch (RuntimeException e) {
        LOG.warn("timer task {} failed", task, e);
      }
    }, nanos, TimeUnit.NANOSECONDS);
    return () -> f.cancel(false);
  }

  static long saturatedNanos(Duration d) {
    try {
      return d.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public String toString() {
    return "TimerClock.system()";
  }
}
