package io.fleetkit.scheduler.internal;

import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.metrics.SchedulerMetrics;

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
 * {@link #NODE_STRIDE}, 2·{@link #NODE_STRIDE}, ... are timed one by one. Filter calls that preemption
 * makes through the framework handle, and PreFilter extensions, are not timed.
 *
 * <p>Series are looked up once per (point, plugin, status) and kept; the arrays are filled racily by the worker
 * threads, which is benign because the registry returns the same series for the same labels. Thread-safe.
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

  /**
   * @param names for each {@link Point} (by ordinal), the plugin names in the framework's order
   */
  PluginTimings(MetricsRegistry metrics, String[][] names) {
    this.metrics = metrics;
    this.names = names;
    this.series = new Histogram[names.length][][];
    for (int p = 0; p < names.length; p++) {
      series[p] = new Histogram[names[p].length][CODES.length];
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
   */
  void observeFilterRange(long[] nanos, int[] failed, Status[] statuses, int from, int to) {
    int n = nanos.length;
    int[] rejected = new int[n];
    int[] codes = new int[n]; // bit per Status.Code ordinal of the nodes each plugin rejected
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
            observe(Point.FILTER, j, code, mean);
          }
        }
      }
      examined -= rejected[j];
    }
  }

  /**
   * A marked cycle ran Score plugin {@code plugin} over positions {@code [from, to)} as one batch in {@code nanos}:
   * the batch's mean per node is observed once, with {@code code}.
   */
  void observeScoreRange(int plugin, Status.Code code, int from, int to, long nanos) {
    if (to > from) {
      observe(Point.SCORE, plugin, code, nanos / (to - from));
    }
  }

  /**
   * Starts timing one run of a once-per-cycle point's plugins (on the calling thread) in a sampled cycle; see
   * {@link Run}.
   */
  Run run(Point point, int plugins) {
    return new Run(point, plugins);
  }

  /**
   * The timings of one run of a point's plugins with one clock read per plugin instead of two: a plugin's duration
   * runs from the end of the previous one (or from the start of the run, or the last {@link #restart()}) to the
   * {@link #done} that reports it. The durations are observed by {@link #observe()} after the run, so no observation
   * is timed as part of a plugin. Confined to one thread.
   */
  final class Run {
    private final Point point;
    private final int[] plugins;
    private final Status.Code[] codes;
    private final long[] nanos;
    private int n;
    private long last;

    private Run(Point point, int capacity) {
      this.point = point;
      this.plugins = new int[capacity];
      this.codes = new Status.Code[capacity];
      this.nanos = new long[capacity];
      this.last = System.nanoTime();
    }

    /** Plugin {@code plugin} returned {@code code} just now. */
    void done(int plugin, Status.Code code) {
      long now = System.nanoTime();
      if (n < plugins.length) {
        plugins[n] = plugin;
        codes[n] = code;
        nanos[n++] = now - last;
      }
      last = now;
    }

    /** The next plugin starts now: work since the last plugin ended is nobody's time. */
    void restart() {
      last = System.nanoTime();
    }

    /** Observes the durations held. */
    void observe() {
      for (int i = 0; i < n; i++) {
        PluginTimings.this.observe(point, plugins[i], codes[i], nanos[i]);
      }
      n = 0;
    }
  }

  /** Records that plugin {@code plugin} (an index into the point's plugins) took {@code nanos} and returned {@code code}. */
  void observe(Point point, int plugin, Status.Code code, long nanos) {
    Histogram[] byCode = series[point.ordinal()][plugin];
    int c = code.ordinal();
    Histogram h = byCode[c];
    if (h == null) {
      h = metrics.histogram(SchedulerMetrics.PLUGIN_EXECUTION_DURATION, names[point.ordinal()][plugin], point.label,
          SchedulerInstruments.codeName(code));
      byCode[c] = h;
    }
    h.observeNanos(nanos);
  }
}
