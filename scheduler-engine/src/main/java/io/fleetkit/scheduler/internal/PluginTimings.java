package io.fleetkit.scheduler.internal;

import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.metrics.SchedulerMetrics;
import org.jspecify.annotations.Nullable;

/**
 * One profile's {@code scheduler_plugin_execution_duration_seconds} series, sampled as kube-scheduler samples them
 * ({@code pkg/scheduler/schedule_one.go} {@code pluginMetricsSamplePercent = 10};
 * {@code framework/runtime/framework.go} {@code run<Point>Plugin} times a plugin only when the cycle state says
 * {@code ShouldRecordPluginMetrics}): {@link #SAMPLE_PERCENT} % of scheduling cycles are marked, and in a marked cycle
 * every plugin call at a once-per-cycle point (PreFilter, PostFilter, PreScore, NormalizeScore, Reserve, Unreserve,
 * Permit, PreBind, Bind, PostBind) is timed. PreEnqueue calls are sampled at the same percentage, as kube's queue
 * does.
 *
 * <p>One deviation, for cost: kube times Filter and Score on every node of a marked cycle; FleetKit evaluates a node
 * in tens of nanoseconds, and its plugins evaluate many nodes per call, so two clock reads and a histogram observation
 * per plugin and node would cost more than the plugins. At these per-node points a marked cycle times each plugin's
 * call over the range of nodes it evaluates as a batch and observes the mean per node, once per batch (and, at
 * Filter, per status returned). Where a search runs node by node, the nodes at evaluation positions 0,
 * {@link #NODE_STRIDE}, 2·{@link #NODE_STRIDE}, ... are timed one by one. The Score plugins whose weighted sum Score
 * keeps across cycles ({@link CachedScoreSum}) run as one pass in every cycle, marked or not; a marked cycle times that
 * pass and observes an equal share of it for each of them ({@link #observeKeptSum}). Likewise the Score plugins whose
 * normalised score is the same on every node answer once for all nodes in every cycle, and a marked cycle times those
 * answers together ({@link #observeUniform}). Filter calls that preemption
 * makes through the framework handle, and PreFilter extensions, are not timed.
 *
 * <p>Observations made on the thread that holds the engine lock (every once-per-cycle point but PreBind and Bind,
 * which may run on a binding thread, and the Filter and Score batches a cycle runs on that thread) are held in the
 * scheduler's {@link ObservationBuffer} and reach their series at its next flush, with the cycle's other
 * observations; those of the worker threads (a parallel Filter or Score) and of PreEnqueue go to their series
 * directly. Series are looked up once per (point, plugin, status) and kept; the series arrays are filled racily by
 * the worker threads, which is benign because the registry returns the same series for the same labels. Thread-safe
 * for the direct observations; the held ones, the {@link Run}s and the batch scratch arrays are confined to the
 * engine lock.
 */
final class PluginTimings {
  /** kube-scheduler's {@code pluginMetricsSamplePercent}. */
  static final int SAMPLE_PERCENT = 10;
  /** At Filter and Score, a marked cycle times one node evaluation in this many (a power of two). */
  static final int NODE_STRIDE = 128;

  /** The extension points whose plugins are timed, with kube's label values. */
  enum Point {
    PRE_ENQUEUE("PreEnqueue"), PRE_FILTER("PreFilter"), FILTER("Filter"), POST_FILTER("PostFilter"),
    PRE_SCORE("PreScore"), SCORE("Score"), NORMALIZE_SCORE("ScoreExtensionNormalize"), RESERVE("Reserve"),
    UNRESERVE("Unreserve"), PERMIT("Permit"), PRE_BIND("PreBind"), BIND("Bind"), POST_BIND("PostBind");

    final String label;

    Point(String label) {
      this.label = label;
    }
  }

  private static final Status.Code[] CODES = Status.Code.values();

  private final MetricsRegistry metrics;
  /** Plugin names per point, in the order of the framework's arrays. */
  private final String[][] names;
  /** [point][plugin][status code], filled on first use. */
  private final Histogram[][][] series;
  /** Where observations made under the engine lock are held until the scheduler's next flush. */
  private final ObservationBuffer buffer;
  /** [point][plugin][status code]: the series' slots in {@link #buffer}, -1 until bound (under the engine lock). */
  private final int[][][] slots;
  /** One reusable {@link Run} per point, created on first use (under the engine lock). */
  private final Run[] runs = new Run[Point.values().length];
  /** Scratch of {@link #observeFilterRange} for the batches run under the engine lock. */
  private int[] rejectedScratch = new int[0];
  private int[] codesScratch = new int[0];

  /**
   * @param names for each {@link Point} (by ordinal), the plugin names in the framework's order
   * @param buffer the scheduler's buffer, flushed by the scheduler
   */
  PluginTimings(MetricsRegistry metrics, String[][] names, ObservationBuffer buffer) {
    this.metrics = metrics;
    this.names = names;
    this.buffer = buffer;
    this.series = new Histogram[names.length][][];
    this.slots = new int[names.length][][];
    for (int p = 0; p < names.length; p++) {
      series[p] = new Histogram[names[p].length][CODES.length];
      slots[p] = new int[names[p].length][];
      for (int i = 0; i < names[p].length; i++) {
        slots[p][i] = SchedulerInstruments.unbound(CODES.length);
      }
    }
  }

  /** Whether a per-node point times the evaluation at {@code position} of a marked cycle. */
  static boolean timesNode(int position) {
    return (position & (NODE_STRIDE - 1)) == 0;
  }

  /**
   * A marked cycle ran the Filter plugins over positions {@code [from, to)} as one batch (the plugins' table paths
   * evaluate many nodes per call), plugin {@code j} in {@code nanos[j]} (-1 when PreFilter's Skip skipped it): for
   * each plugin, the batch's mean per examined node (those no earlier plugin rejected; {@code failed[pos]} is the
   * rejecting plugin's index or -1) is observed once for each status it returned in the batch: {@code Success} when
   * it passed a node, and the status of each node it rejected. One pass over the batch for all plugins.
   * {@code locked}: the batch ran on the thread holding the engine lock (observations held in the buffer), else on a
   * worker thread (observed directly).
   */
  void observeFilterRange(long[] nanos, int[] failed, Status[] statuses, int from, int to, boolean locked) {
    int n = nanos.length;
    int[] rejected;
    int[] codes; // bit per Status.Code ordinal of the nodes each plugin rejected
    if (locked) {
      if (rejectedScratch.length < n) {
        rejectedScratch = new int[n];
        codesScratch = new int[n];
      }
      rejected = rejectedScratch;
      codes = codesScratch;
      java.util.Arrays.fill(rejected, 0, n, 0);
      java.util.Arrays.fill(codes, 0, n, 0);
    } else {
      rejected = new int[n];
      codes = new int[n];
    }
    for (int pos = from; pos < to; pos++) {
      int f = failed[pos];
      if (f >= 0 && f < n) {
        rejected[f]++;
        codes[f] |= 1 << statuses[pos].code().ordinal();
      }
    }
    int examined = to - from;
    for (int j = 0; j < n && examined > 0; j++) {
      if (nanos[j] >= 0) {
        long mean = nanos[j] / examined;
        int c = codes[j];
        if (examined > rejected[j]) {
          c |= 1 << Status.Code.SUCCESS.ordinal();
        }
        for (Status.Code code : CODES) {
          if ((c & (1 << code.ordinal())) != 0) {
            if (locked) {
              observe(Point.FILTER, j, code, mean);
            } else {
              observeDirect(Point.FILTER, j, code, mean);
            }
          }
        }
      }
      examined -= rejected[j];
    }
  }

  /**
   * A marked cycle ran Score plugin {@code plugin} over positions {@code [from, to)} as one batch in {@code nanos}:
   * the batch's mean per node is observed once, with {@code code}; {@code locked} as for
   * {@link #observeFilterRange}.
   */
  void observeScoreRange(int plugin, Status.Code code, int from, int to, long nanos, boolean locked) {
    if (to > from) {
      if (locked) {
        observe(Point.SCORE, plugin, code, nanos / (to - from));
      } else {
        observeDirect(Point.SCORE, plugin, code, nanos / (to - from));
      }
    }
  }

  /**
   * A marked cycle scored the {@code count} Score plugins marked in {@code members} together over {@code k} nodes, as
   * the weighted sum it keeps for them ({@link CachedScoreSum}: their keys, the kept sums read back, the plugins asked
   * for the nodes not kept), from the Score point's start ({@code state}'s {@link ArrayCycleState#clockMark}, where
   * the point began) to now: the pass's mean per node and member, an equal share for each, is observed once for each
   * member with {@code Success}. The members run the same pass whether or not the cycle is marked; their time can
   * only be told apart as a whole. Only on the thread holding the engine lock.
   */
  void observeKeptSum(boolean[] members, int count, int k, ArrayCycleState state) {
    long now = System.nanoTime();
    long start = state.clockMark;
    state.clockMark = now;
    if (start == SchedulerInstruments.NOTHING_RAN || count == 0 || k == 0) {
      return; // no start to measure from
    }
    long share = (now - start) / ((long) count * k);
    for (int j = 0; j < members.length; j++) {
      if (members[j]) {
        observe(Point.SCORE, j, Status.Code.SUCCESS, share);
      }
    }
  }

  /**
   * A marked cycle found {@code count} Score plugins whose normalised score is the same on every node
   * ({@link TableScore#uniformScore}; marked in {@code uniformOrSkipped} and not in {@code skip}), from the Score
   * point's start ({@code state}'s {@link ArrayCycleState#clockMark}) to now, for {@code k} nodes: such a plugin's
   * answer is its Score and its NormalizeScore for every node, and its weighted score is added to the totals in a pass
   * made anyway. For each of them the answers' mean per node and plugin, an equal share, is observed once at Score,
   * and 0 s at NormalizeScore when it has one (nothing was normalised), both with {@code Success}: the series and
   * counts a plugin-by-plugin cycle gives them. The same answers are used in every cycle, marked or not. Only on the
   * thread holding the engine lock.
   */
  void observeUniform(boolean[] uniformOrSkipped, boolean @Nullable [] skip, boolean[] normalizes, int count, int k,
      ArrayCycleState state) {
    long now = System.nanoTime();
    long start = state.clockMark;
    state.clockMark = now;
    long share = start == SchedulerInstruments.NOTHING_RAN || count == 0 || k == 0 ? 0
        : (now - start) / ((long) count * k);
    for (int j = 0; j < uniformOrSkipped.length; j++) {
      if (uniformOrSkipped[j] && (skip == null || !skip[j])) {
        observe(Point.SCORE, j, Status.Code.SUCCESS, share);
        if (normalizes[j]) {
          observe(Point.NORMALIZE_SCORE, j, Status.Code.SUCCESS, 0);
        }
      }
    }
  }

  /**
   * Starts timing one run of a once-per-cycle point's plugins in a sampled cycle, on the thread holding the engine
   * lock; see {@link Run}. One {@link Run} per point is reused: a run must be {@link Run#observe() observed} before the
   * same point runs again. The run's clock reads are left in {@code state}'s {@link ArrayCycleState#clockMark}.
   *
   * @param chained whether the run starts at {@code state}'s last clock read (its extension point started just now)
   *     instead of reading the clock
   */
  Run run(Point point, int plugins, ArrayCycleState state, boolean chained) {
    Run r = runs[point.ordinal()];
    if (r == null || r.plugins.length < plugins) {
      r = runs[point.ordinal()] = new Run(point, plugins);
    }
    r.n = 0;
    r.state = state;
    r.last = chained ? state.clockMark : (state.clockMark = System.nanoTime());
    return r;
  }

  /**
   * The timings of one run of a point's plugins with one clock read per plugin instead of two: a plugin's duration
   * runs from the end of the previous one (or from the start of the run, or the last {@link #restart()}) to the
   * {@link #done} that reports it. The durations are observed by {@link #observe()} after the run, so no observation
   * is timed as part of a plugin. Confined to the engine lock.
   */
  final class Run {
    private final Point point;
    private final int[] plugins;
    private final Status.Code[] codes;
    private final long[] nanos;
    private int n;
    private long last;
    private @Nullable ArrayCycleState state;

    private Run(Point point, int capacity) {
      this.point = point;
      this.plugins = new int[capacity];
      this.codes = new Status.Code[capacity];
      this.nanos = new long[capacity];
    }

    /** Plugin {@code plugin} returned {@code code} just now. */
    void done(int plugin, Status.Code code) {
      long now = System.nanoTime();
      state.clockMark = now;
      if (n < plugins.length) {
        plugins[n] = plugin;
        codes[n] = code;
        nanos[n++] = now - last;
      }
      last = now;
    }

    /** The next plugin starts now: work since the last plugin ended is nobody's time. */
    void restart() {
      last = state.clockMark = System.nanoTime();
    }

    /** Observes the durations held. */
    void observe() {
      for (int i = 0; i < n; i++) {
        PluginTimings.this.observe(point, plugins[i], codes[i], nanos[i]);
      }
      n = 0;
      state = null;
    }
  }

  /**
   * Records that plugin {@code plugin} (an index into the point's plugins) took {@code nanos} and returned
   * {@code code}: held in the buffer until the scheduler's next flush. Only under the engine lock.
   */
  void observe(Point point, int plugin, Status.Code code, long nanos) {
    int[] byCode = slots[point.ordinal()][plugin];
    int c = code.ordinal();
    int slot = byCode[c];
    if (slot < 0) {
      slot = byCode[c] = buffer.histogram(series(point, plugin, code), true);
    }
    buffer.add(slot, nanos);
  }

  /** {@link #observe}, straight to the series: from any thread (worker and binding threads, PreEnqueue). */
  void observeDirect(Point point, int plugin, Status.Code code, long nanos) {
    series(point, plugin, code).observeNanos(nanos);
  }

  private Histogram series(Point point, int plugin, Status.Code code) {
    Histogram[] byCode = series[point.ordinal()][plugin];
    int c = code.ordinal();
    Histogram h = byCode[c];
    if (h == null) {
      h = metrics.histogram(SchedulerMetrics.PLUGIN_EXECUTION_DURATION, names[point.ordinal()][plugin], point.label,
          SchedulerInstruments.codeName(code));
      byCode[c] = h;
    }
    return h;
  }
}
