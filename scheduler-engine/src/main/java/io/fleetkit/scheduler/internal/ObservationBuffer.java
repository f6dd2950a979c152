package io.fleetkit.scheduler.internal;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Histogram;
import java.util.Arrays;

/**
 * Histogram observations and counter increments made on the scheduling thread, held per series in plain arrays and
 * handed to their (thread-safe) series by {@link #flush()}: a counter gets one increment by the sum of its held
 * increments, a histogram its held values in one {@link Histogram#observeNanos(long[], int)} call (which a series
 * may add in bulk, one atomic update per bucket touched instead of one per observation). A series' atomic update
 * right after a scheduling cycle waits for the cycle's pending stores to drain; a loop of them does not, so a batch
 * costs a fraction of the same updates spread over the cycles. Flushed when a series holds {@link #VALUES} values,
 * and by the scheduler every {@code EVALUATION_FLUSH_CYCLES} cycles, when its queue runs empty, at the end of
 * {@code scheduleOne()} and on close, so a scrape between two calls sees every observation. Confined to the
 * scheduler's lock.
 */
final class ObservationBuffer {
  /** Values held per histogram series before a flush. */
  static final int VALUES = 64;
  /** Series held at once; one more flushes and forgets them all (the scheduler uses a few dozen at most). */
  private static final int MAX_SERIES = 64;

  /** Histogram series seen since the last reset, in first-use order (the per-attempt ones first). */
  private Histogram[] histograms = new Histogram[16];
  /** Per series: whether its values are nanoseconds ({@link Histogram#observeNanos}) or plain values. */
  private boolean[] nanos = new boolean[16];
  private long[][] values = new long[16][];
  private int[] sizes = new int[16];
  private int histogramCount;

  private Counter[] counters = new Counter[8];
  private long[] increments = new long[8];
  private int counterCount;
  /** Observations and increments held since the last flush. */
  private int held;

  /** Observes {@code value} (a duration in nanoseconds) on {@code h} at the next flush. */
  void observeNanos(Histogram h, long value) {
    add(h, value, true);
  }

  /** Observes {@code value} (a count) on {@code h} at the next flush. */
  void observe(Histogram h, long value) {
    add(h, value, false);
  }

  /** Adds one to {@code c} at the next flush. */
  void increment(Counter c) {
    held++;
    int n = counterCount;
    for (int i = 0; i < n; i++) {
      if (counters[i] == c) {
        increments[i]++;
        return;
      }
    }
    if (n == counters.length) {
      if (n == MAX_SERIES) {
        flush();
        forget();
        n = 0;
      } else {
        counters = Arrays.copyOf(counters, n * 2);
        increments = Arrays.copyOf(increments, n * 2);
      }
    }
    counters[n] = c;
    increments[n] = 1;
    counterCount = n + 1;
  }

  private void add(Histogram h, long value, boolean isNanos) {
    held++;
    int n = histogramCount;
    int i = 0;
    while (i < n && histograms[i] != h) {
      i++;
    }
    if (i == n) {
      if (n == histograms.length) {
        if (n == MAX_SERIES) {
          flush();
          forget();
          i = n = 0;
        } else {
          histograms = Arrays.copyOf(histograms, n * 2);
          nanos = Arrays.copyOf(nanos, n * 2);
          values = Arrays.copyOf(values, n * 2);
          sizes = Arrays.copyOf(sizes, n * 2);
        }
      }
      histograms[i] = h;
      nanos[i] = isNanos;
      if (values[i] == null) {
        values[i] = new long[VALUES];
      }
      histogramCount = n + 1;
    }
    int size = sizes[i];
    values[i][size] = value;
    sizes[i] = size + 1;
    if (size + 1 == VALUES) {
      flush();
    }
  }

  /** Hands every held observation and increment to its series. */
  void flush() {
    if (held == 0) {
      return; // e.g. the release of the engine lock after a call that ran no cycle
    }
    held = 0;
    for (int i = 0; i < counterCount; i++) {
      long k = increments[i];
      if (k != 0) {
        increments[i] = 0;
        counters[i].increment(k);
      }
    }
    for (int i = 0; i < histogramCount; i++) {
      int n = sizes[i];
      if (n == 0) {
        continue;
      }
      sizes[i] = 0;
      Histogram h = histograms[i];
      long[] v = values[i];
      if (nanos[i]) {
        h.observeNanos(v, n);
      } else {
        for (int k = 0; k < n; k++) {
          h.observe(v[k]);
        }
      }
    }
  }

  /** Forgets the series (all flushed). */
  private void forget() {
    Arrays.fill(histograms, 0, histogramCount, null);
    Arrays.fill(counters, 0, counterCount, null);
    histogramCount = 0;
    counterCount = 0;
  }
}
