package io.fleetkit.scheduler.internal;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Histogram;

/**
 * Histogram observations and counter increments made on the scheduling thread, held in plain arrays and handed to
 * their (thread-safe) series in one tight loop by {@link #flush()}. A series' atomic update right after a scheduling
 * cycle waits for the cycle's pending stores to drain; a loop of them does not, so a batch costs a fraction of the
 * same updates spread over the cycles. Flushed when full, and by the scheduler every
 * {@code EVALUATION_FLUSH_CYCLES} cycles, when its queue runs empty, at the end of {@code scheduleOne()} and on close,
 * so a scrape between two calls sees every observation. Confined to the scheduler's lock.
 */
final class ObservationBuffer {
  private static final int CAPACITY = 256;

  private final Object[] series = new Object[CAPACITY];
  /** A histogram's value in nanoseconds ({@link #nanos}) or as given; a counter's increment. */
  private final long[] values = new long[CAPACITY];
  private final boolean[] nanos = new boolean[CAPACITY];
  private int size;

  /** Observes {@code nanos} (a duration) on {@code h} at the next flush. */
  void observeNanos(Histogram h, long value) {
    add(h, value, true);
  }

  /** Observes {@code value} (a count) on {@code h} at the next flush. */
  void observe(Histogram h, long value) {
    add(h, value, false);
  }

  /** Adds one to {@code c} at the next flush. */
  void increment(Counter c) {
    add(c, 1, false);
  }

  private void add(Object s, long value, boolean isNanos) {
    int i = size;
    series[i] = s;
    values[i] = value;
    nanos[i] = isNanos;
    size = i + 1;
    if (size == CAPACITY) {
      flush();
    }
  }

  /** Hands every held observation and increment to its series, in the order they were made. */
  void flush() {
    int n = size;
    size = 0;
    for (int i = 0; i < n; i++) {
      Object s = series[i];
      series[i] = null;
      if (s instanceof Histogram h) {
        if (nanos[i]) {
          h.observeNanos(values[i]);
        } else {
          h.observe(values[i]);
        }
      } else {
        ((Counter) s).increment(values[i]);
      }
    }
  }
}
