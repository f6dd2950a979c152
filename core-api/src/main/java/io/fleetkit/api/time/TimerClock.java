package io.fleetkit.api.time;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * A clock with timers: what time it is, and "run this later". Every timed behaviour of the controller runtime
 * (delaying and rate-limited work queues, informer resync, leader-election renewals, requeue-after) and of the
 * simulated nodes goes through one of these, so that a simulation can swap the wall clock ({@link #system()}) for a
 * {@link ManualClock} and step time deterministically.
 *
 * <p>Implementations are thread-safe. Scheduled tasks must be short and must not block: they run on a shared timer
 * thread ({@link #system()}) or on the thread that advances a {@link ManualClock}.
 */
public interface TimerClock {

  /** The wall clock, with one shared daemon timer thread named {@code fleetkit-timer}, started on first use. */
  static TimerClock system() {
    return SystemTimerClock.instance();
  }

  /** The current instant. */
  Instant now();

  /**
   * Runs {@code task} once, no earlier than {@code delay} from now (a delay of zero or less means "as soon as
   * possible", still asynchronously for the system clock, at the next advance for a manual clock).
   *
   * @return a handle that cancels the task if it has not started
   */
  Timer schedule(Duration delay, Runnable task);

  /** This clock as a {@link java.time.Clock} in UTC, for code that only reads the time. */
  default Clock asClock() {
    TimerClock self = this;
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return Clock.fixed(instant(), zone);
      }

      @Override
      public Instant instant() {
        return self.now();
      }

      @Override
      public String toString() {
        return "Clock{" + self + "}";
      }
    };
  }

  /** A scheduled task. */
  interface Timer {
    /**
     * Cancels the task if it has not started yet.
     *
     * @return whether this call prevented the task from running
     */
    boolean cancel();
  }
}
