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
 * profile, extension point, plugin and status), so holding a value needs no look-up. Histogram values are appended to
 * one journal (slot and value, in the order they came) rather than to their series' own arrays: a sampled cycle
 * observes some thirty plugin and extension-point series, one cycle in ten, and writing into thirty arrays that went
 * cold since the last sampled cycle costs a cache miss each, where the journal's next entries are where the last
 * cycle left off. A flush sorts the journal out per series and visits only the series that hold something; a full
 * journal ({@link #JOURNAL} values) flushes everything. Flushed by the scheduler every
 * {@code EVALUATION_FLUSH_CYCLES} cycles, when its queue runs empty, at the end of {@code scheduleOne()}, before every
 * other call returns and on close, so a scrape between two calls sees every observation. Confined to the scheduler's
 * lock.
 */
final class ObservationBuffer {
  /** Histogram values the journal holds before it is flushed. */
  static final int JOURNAL = 4096;

  /** The held histogram values, in order: the slot of each and the value. */
  private final int[] journalSlots = new int[JOURNAL];
  private final long[] journalValues = new long[JOURNAL];
  private int journalSize;

  /** Histogram series registered, by slot. */
  private Histogram[] histograms = new Histogram[16];
  /** Per series: whether its values are nanoseconds ({@link Histogram#observeNanos}) or plain values. */
  private boolean[] nanos = new boolean[16];
  private long[][] values = new long[16][];
  private int[] sizes = new int[16];
  private int histogramCount;
  /** Scratch of {@link #flush()}: the histogram slots the journal held values for, each once. */
  private int[] heldHistograms = new int[16];
  private boolean[] histogramListed = new boolean[16];

  private Counter[] counters = new Counter[8];
  private long[] increments = new long[8];
  private int counterCount;
  /** Counter slots incremented since the last flush, each once (their increments are not 0). */
  private int[] heldCounters = new int[8];
  private int heldCounterCount;

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
      heldHistograms = Arrays.copyOf(heldHistograms, n * 2);
      histogramListed = Arrays.copyOf(histogramListed, n * 2);
    }
    histograms[n] = h;
    nanos[n] = isNanos;
    values[n] = new long[16];
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
      heldCounters = Arrays.copyOf(heldCounters, n * 2);
    }
    counters[n] = c;
    counterCount = n + 1;
    return n;
  }

  /** Observes {@code value} on the histogram in {@code slot} at the next flush. */
  void add(int slot, long value) {
    int n = journalSize;
    if (n == JOURNAL) {
      flush();
      n = 0;
    }
    journalSlots[n] = slot;
    journalValues[n] = value;
    journalSize = n + 1;
  }

  /** Adds one to the counter in {@code slot} at the next flush. */
  void increment(int slot) {
    if (increments[slot]++ == 0) {
      heldCounters[heldCounterCount++] = slot;
    }
  }

  /** Whether anything is held. */
  boolean isEmpty() {
    return heldCounterCount == 0 && journalSize == 0;
  }

  /** Hands every held observation and increment to its series. */
  void flush() {
    int nc = heldCounterCount;
    if (nc != 0) {
      heldCounterCount = 0;
      for (int k = 0; k < nc; k++) {
        int i = heldCounters[k];
        long inc = increments[i];
        increments[i] = 0;
        counters[i].increment(inc);
      }
    }
    int nj = journalSize;
    if (nj != 0) {
      journalSize = 0;
      int nh = 0;
      for (int k = 0; k < nj; k++) {
        int i = journalSlots[k];
        int size = sizes[i];
        long[] v = values[i];
        if (size == v.length) {
          v = values[i] = Arrays.copyOf(v, size * 2);
        }
        v[size] = journalValues[k];
        sizes[i] = size + 1;
        if (!histogramListed[i]) {
          histogramListed[i] = true;
          heldHistograms[nh++] = i;
        }
      }
      for (int k = 0; k < nh; k++) {
        int i = heldHistograms[k];
        histogramListed[i] = false;
        handOver(i, sizes[i]);
      }
    }
  }

  private void handOver(int slot, int n) {
    sizes[slot] = 0;
    Histogram h = histograms[slot];
    if (nanos[slot]) {
      h.observeNanos(values[slot], n);
    } else {
      h.observe(values[slot], n);
    }
  }
}
