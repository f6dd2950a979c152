package io.fleetkit.reconcile.internal;

import io.fleetkit.reconcile.SchedulingClock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** The wall clock with one shared daemon timer thread. Tasks must be short; a task that throws is logged. */
public final class SystemSchedulingClock implements SchedulingClock {
  public static final SystemSchedulingClock INSTANCE = new SystemSchedulingClock();
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(SystemSchedulingClock.class);

  private final ScheduledThreadPoolExecutor timer;

  private SystemSchedulingClock() {
    timer = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "fleetkit-reconcile-timer");
      t.setDaemon(true);
      return t;
    });
    timer.setRemoveOnCancelPolicy(true);
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
    return "SystemSchedulingClock";
  }
}
