package io.fleetkit.scheduler.internal;

import io.fleetkit.api.metrics.Counter;
import io.fleetkit.api.metrics.Histogram;
import java.util.Arrays;

/**
 * Histogram observations and counter increments made on the scheduling thread, held per series in plain arrays and
 * handed to their (thread-safe) series by {@link #flush()}: a counter gets one increment by the sum of its held
 * increments, a histogram its held values in one {@link Histogram#observeNanos(long[], int)} (durations) or
 * {@link Histogram#observe(long[], int)} (counts) call (which a series
 * may add in bulk, one atomic update per bucket touched instead of one per observation, its bucket search done there
 * and not on the scheduling cycle). A series' atomic update right after a scheduling cycle waits for the cycle's
 * pending stores to drain; a loop of them does not, so a batch costs a fraction of the same updates spread over the
 * cycles.
 *
 * <p>A series is registered once ({@link #histogram}, {@link #counter}) and its slot kept by the caller (bound per
 * profile, extension point, plugin and status), so holding a value is an array store, with no look-up. Flushed when
 * a series holds {@link #VALUES} values, and by the scheduler every {@code EVALUATION_FLUSH_CYCLES} cycles, when its
 * queue runs empty, at the end of {@code scheduleOne()} and on close, so a scrape between two calls sees every
 * observation. Confined to the scheduler's lock.
 */
final class ObservationBuffer {
  /** Values held per histogram series before a flush. */
  static final int VALUES = 64;

  /** Histogram series registered, by slot. */
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

  /**
   * The slot of histogram {@code h}, registering it on first use; {@code isNanos} says whether its values are
   * durations in nanoseconds or plain values (counts). Look-up by identity: call once per series and keep the slot.
   */
  int histogram(Histogram h, boolean isNanos) {
    int n = histogramCount;
    for (int i = 0; i < n; i++) {
      if (histograms[i] == h) {
        return i;
      }
    }
    if (n == histograms.length) {
      histograms = Arrays.copyOf(histograms, n * 2);
      nanos = Arrays.copyOf(nanos, n * 2);
      values = Arrays.copyOf(values, n * 2);
      sizes = Arrays.copyOf(sizes, n * 2);
    }
    histograms[n] = h;
    nanos[n] = isNanos;
    values[n] = new long[VALUES];
    histogramCount = n + 1;
    return n;
  }

  /** The slot of counter {@code c}, registering it on first use (look-up by identity: call once per series). */
  int counter(Counter c) {
    int n = counterCount;
    for (int i = 0; i < n; i++) {
      if (counters[i] == c) {
        return i;
      }
    }
    if (n == counters.length) {
      counters = Arrays.copyOf(counters, n * 2);
      increments = Arrays.copyOf(increments, n * 2);
    }
    counters[n] = c;
    counterCount = n + 1;
    return n;
  }

  /** Observes {@code value} on the histogram in {@code slot} at the next flush. */
  void add(int slot, long value) {
    held++;
    int size = sizes[slot];
    values[slot][size] = value;
    sizes[slot] = size + 1;
    if (size + 1 == VALUES) {
      flush();
    }
  }

  /** Adds one to the counter in {@code slot} at the next flush. */
  void increment(int slot) {
    held++;
    increments[slot]++;
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
        h.observe(v, n);
      }
    }
  }
}
