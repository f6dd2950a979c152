package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Pod;
import io.fleetkit.benchmarks.generator.PerfCase;
import io.fleetkit.benchmarks.impl.FleetKitHarness;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.otel.OpenTelemetryTracing;
import io.fleetkit.scheduler.DefaultPlugins;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The overhead guard rail of metrics and tracing, measured so that a drifting load cancels out: each iteration builds
 * two schedulers on the same SchedulingBasic cluster (5000 nodes, 1000 init pods), one without observability
 * ({@code off}) and one with kube-scheduler's metrics into a Prometheus registry and OpenTelemetry tracing through
 * the API without an SDK ({@code on}; {@code tracing=ratio} puts the SDK with the production ratio sampler behind
 * it, {@code tracing=all} the SDK recording every span), and schedules the same 10,000 measured pods on both, <em>interleaved</em>: slice by slice of {@link #slice}
 * pods, off then on or on then off (the order alternating from slice to slice), so the two sides of a slice run a
 * few milliseconds apart on the same cluster state.
 *
 * <p>What is compared is the CPU time of the scheduling thread ({@code ThreadMXBean}, the thread that runs every
 * cycle: both schedulers run with parallelism 1), which a machine shared with other work disturbs far less than wall
 * time, and the bytes that thread allocated (observability's garbage is collected on other threads, so it shows here
 * and not in the CPU time). Results per iteration (secondary, JMH's {@code AuxCounters}):
 * <ul>
 *   <li>{@code offCpuMs}, {@code onCpuMs}: the scheduling thread's CPU time for the 10,000 pods;
 *   <li>{@code overheadPct}: {@code 100 × (onCpuMs / offCpuMs − 1)}; JMH prints its mean with a confidence interval
 *       over every iteration of every fork;
 *   <li>{@code sliceMedianPct}: the median over the iteration's slices of each slice's overhead;
 *   <li>{@code offBytesPerPod}, {@code onBytesPerPod}: bytes the scheduling thread allocated per pod.
 * </ul>
 * Each fork also prints, at its end, the median of its iterations' {@code overheadPct} with a distribution-free 95 %
 * confidence interval of that median (order statistics), so the median of the forks' medians can be read off.
 *
 * <p>{@code -p observe=clock} measures what the guard rail's clock reads alone cost: both schedulers without
 * observability and with the same result listener, which on the {@code on} side reads the clock {@link #clockReads}
 * times per pod.
 *
 * <p>{@code -p observe=none} is the A/A check of the pairing: both schedulers without observability, the same pods
 * in the same order and the same alternation, so it should measure 0 % within its spread. The two schedulers are
 * built in alternating order from iteration to iteration.
 *
 * <p>Both schedulers share one JVM, so the JIT sees both paths: the {@code off} scheduler runs code compiled with the
 * observability branches taken half the time, where a JVM without a registry never takes them. That can only make
 * {@code off} a little slower (the overhead measured here is at most slightly low); {@link
 * ObservabilityOverheadBenchmark} runs each mode in JVMs of its own.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 12)
@Fork(value = 3, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class ObservabilityOverheadPairedBenchmark {
  /**
   * {@code api}: the OpenTelemetry API without an SDK ({@code OpenTelemetry.noop()}, the guard rail's tracing), which
   * records nothing: {@code OpenTelemetryTracing} then reports itself not enabled and the scheduler starts no span;
   * {@code ratio}: the SDK with the production sampler
   * {@code parentBased(traceIdRatioBased(0.1))} and a span processor that drops every span (an SDK without any
   * processor hands out the no-op tracer, the same as {@code api}); {@code all}: the same SDK recording every span.
   */
  @Param({"api"})
  public String tracing;

  /**
   * The {@code on} scheduler's {@code metricsSamplePercent}: the share of cycles that time their plugins and
   * extension points (10, kube-scheduler's {@code pluginMetricsSamplePercent}, by default).
   */
  @Param({"10"})
  public int samplePercent;

  /**
   * What the {@code on} scheduler records: {@code metrics+tracing} (the guard rail), or {@code metrics} or
   * {@code tracing} alone (to tell the two costs apart), or {@code none}: both schedulers without observability, the
   * A/A run that shows what the pairing itself leaves (it should measure 0 % within its spread), or {@code clock}:
   * the {@code on} scheduler without observability too, but reading {@link System#nanoTime()} {@link #clockReads}
   * times per pod scheduled (in its result listener, on the scheduling thread): what the clock reads alone cost.
   */
  @Param({"metrics+tracing"})
  public String observe;

  /**
   * With {@code observe=clock}: the clock reads per pod (a fraction is spread over the pods). The default is what the
   * {@code on} scheduler of the guard rail reads per pod of this workload: three per attempt (its start, the host
   * selection, its end), about 34 in each sampled cycle (one per plugin and extension-point boundary), and the
   * sampled PreEnqueue calls: 6.74 per pod, counted with a build that counted every read.
   */
  @Param({"6.74"})
  public double clockReads;

  /** Where the clock reads of {@code observe=clock} go, so that none is optimised away (plain: no fence). */
  static long clockSink;

  /** Pods per slice: the two schedulers alternate every this many pods. */
  @Param({"500"})
  public int slice;

  private static final java.lang.management.ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
  private static final com.sun.management.ThreadMXBean ALLOC =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  private PerfCase perfCase;
  private List<List<Pod>> slices;
  private FleetKitHarness off;
  private FleetKitHarness on;
  private int iteration;
  private boolean measuring;
  /** overheadPct of every measured iteration of this fork. */
  private final List<Double> forkOverheads = new ArrayList<>();

  @Setup(Level.Trial)
  public void load() {
    if (!tracing.equals("api") && !tracing.equals("ratio") && !tracing.equals("all")) {
      throw new IllegalArgumentException("tracing " + tracing + " must be api, ratio or all");
    }
    if (samplePercent < 0 || samplePercent > 100) {
      throw new IllegalArgumentException("samplePercent " + samplePercent + " must be within 0..100");
    }
    if (!observe.equals("metrics+tracing") && !observe.equals("metrics") && !observe.equals("tracing")
        && !observe.equals("none") && !observe.equals("clock")) {
      throw new IllegalArgumentException("observe " + observe
          + " must be metrics+tracing, metrics, tracing, none or clock");
    }
    if (!(clockReads >= 0 && clockReads <= 1000)) {
      throw new IllegalArgumentException("clockReads " + clockReads + " must be within 0..1000");
    }
    if (slice < 1) {
      throw new IllegalArgumentException("slice " + slice + " must be at least 1 pod");
    }
    if (!THREADS.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException("this JVM cannot measure a thread's CPU time");
    }
    perfCase = PerfCase.of("SchedulingBasic", 5000);
    List<Pod> measured = perfCase.measuredPods();
    slices = new ArrayList<>();
    for (int i = 0; i < measured.size(); i += slice) {
      slices.add(measured.subList(i, Math.min(measured.size(), i + slice)));
    }
  }

  @Setup(Level.Iteration)
  public void setUp(org.openjdk.jmh.infra.IterationParams params) {
    measuring = params.getType() == org.openjdk.jmh.runner.IterationType.MEASUREMENT;
    // built in alternating order, so neither side always gets the first (or the second) of the set-up's memory
    if (iteration % 2 == 0) {
      off = harness(false);
      on = harness(true);
    } else {
      on = harness(true);
      off = harness(false);
    }
    iteration++;
    System.gc(); // the set-up's garbage, collected before the measured slices
  }

  private FleetKitHarness harness(boolean observed) {
    FleetKitHarness h = new FleetKitHarness(perfCase.nodes(), DefaultPlugins.profile(), 1, 42, b -> {
      if (observed) {
        if (observe.startsWith("metrics")) {
          b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)))
              .metricsSamplePercent(samplePercent);
        }
        if (observe.endsWith("tracing")) {
          b.tracing(OpenTelemetryTracing.of(openTelemetry()));
        }
        if (observe.equals("clock")) {
          b.onResult(clockReader(clockReads));
        }
      } else if (observe.equals("clock")) {
        b.onResult(clockReader(0)); // the same listener without the reads
      }
    });
    List<Pod> init = perfCase.initPods();
    if (h.scheduleAll(init) != init.size()) {
      throw new IllegalStateException("not every init pod bound");
    }
    return h;
  }

  /** A result listener that reads the clock {@code perPod} times per result on average. */
  static java.util.function.Consumer<io.fleetkit.scheduler.ScheduleResult> clockReader(double perPod) {
    double[] owed = {0};
    return r -> {
      owed[0] += perPod;
      long sum = 0;
      while (owed[0] >= 1) {
        sum += System.nanoTime();
        owed[0] -= 1;
      }
      clockSink += sum;
    };
  }

  private OpenTelemetry openTelemetry() {
    if (tracing.equals("api")) {
      return OpenTelemetry.noop();
    }
    Sampler sampler = tracing.equals("all") ? Sampler.alwaysOn()
        : Sampler.parentBased(Sampler.traceIdRatioBased(ObservabilityOverheadBenchmark.TRACE_RATIO));
    return OpenTelemetrySdk.builder().setTracerProvider(SdkTracerProvider.builder().setSampler(sampler)
        .addSpanProcessor(DROP).build()).build();
  }

  /** Ends every span without exporting it; with no processor at all the SDK's tracers would be no-ops. */
  static final SpanProcessor DROP = new SpanProcessor() {
    @Override
    public void onStart(Context parentContext, ReadWriteSpan span) {}

    @Override
    public boolean isStartRequired() {
      return false;
    }

    @Override
    public void onEnd(ReadableSpan span) {}

    @Override
    public boolean isEndRequired() {
      return false;
    }
  };

  @TearDown(Level.Iteration)
  public void tearDown() {
    off.close();
    on.close();
  }

  /** Prints this fork's median overhead and a 95 % confidence interval of it (order statistics, binomial). */
  @TearDown(Level.Trial)
  public void summary() {
    if (forkOverheads.isEmpty()) {
      return;
    }
    double[] v = forkOverheads.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    int[] ci = medianConfidenceRanks(v.length);
    System.out.printf(Locale.ROOT, "%nobservability overhead, this fork: median %.2f %% over %d iterations"
        + " (95 %% CI of the median %.2f … %.2f %%; range %.2f … %.2f %%)%n", median(v), v.length,
        v[ci[0]], v[ci[1]], v[0], v[v.length - 1]);
  }

  /** Per-iteration results; see the class comment. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Times {
    public double offCpuMs;
    public double onCpuMs;
    public double overheadPct;
    public double sliceMedianPct;
    public double offBytesPerPod;
    public double onBytesPerPod;

    @Setup(Level.Iteration)
    public void reset() {
      offCpuMs = onCpuMs = overheadPct = sliceMedianPct = offBytesPerPod = onBytesPerPod = 0;
    }
  }

  /** Schedules the measured pods on both schedulers, slice by slice; returns how many were bound in all. */
  @Benchmark
  public int schedulePair(Times t) {
    int bound = 0;
    long offCpu = 0;
    long onCpu = 0;
    long offBytes = 0;
    long onBytes = 0;
    int pods = 0;
    double[] sliceRatios = new double[slices.size()];
    long self = Thread.currentThread().getId();
    for (int k = 0; k < slices.size(); k++) {
      List<Pod> pods1 = slices.get(k);
      pods += pods1.size();
      long[] cpu = new long[2];
      for (int side = 0; side < 2; side++) {
        boolean observed = (side == 0) == ((k + iteration) % 2 == 0);
        long bytes0 = ALLOC.getThreadAllocatedBytes(self);
        long cpu0 = THREADS.getCurrentThreadCpuTime();
        bound += (observed ? on : off).scheduleAll(pods1);
        long dCpu = THREADS.getCurrentThreadCpuTime() - cpu0;
        long dBytes = ALLOC.getThreadAllocatedBytes(self) - bytes0;
        cpu[observed ? 1 : 0] = dCpu;
        if (observed) {
          onCpu += dCpu;
          onBytes += dBytes;
        } else {
          offCpu += dCpu;
          offBytes += dBytes;
        }
      }
      sliceRatios[k] = cpu[0] > 0 ? 100.0 * ((double) cpu[1] / cpu[0] - 1) : 0;
    }
    Arrays.sort(sliceRatios);
    t.offCpuMs = offCpu / 1e6;
    t.onCpuMs = onCpu / 1e6;
    t.overheadPct = offCpu > 0 ? 100.0 * ((double) onCpu / offCpu - 1) : 0;
    t.sliceMedianPct = median(sliceRatios);
    t.offBytesPerPod = (double) offBytes / pods;
    t.onBytesPerPod = (double) onBytes / pods;
    if (measuring) {
      forkOverheads.add(t.overheadPct);
    }
    return bound;
  }

  static double median(double[] sorted) {
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /**
   * The 0-based ranks [lo, hi] of sorted values that bound the median with at least 95 % confidence: the widest
   * symmetric pair whose binomial(n, 1/2) tail on each side stays at or below 2.5 % (the whole range when n is too
   * small for that).
   */
  static int[] medianConfidenceRanks(int n) {
    double[] cdf = new double[n + 1];
    double p = Math.pow(0.5, n);
    double sum = 0;
    double coef = 1;
    for (int k = 0; k <= n; k++) {
      sum += coef * p;
      cdf[k] = sum;
      coef = coef * (n - k) / (k + 1);
    }
    int lo = 0;
    while (lo + 1 < n && cdf[lo] <= 0.025) {
      lo++;
    }
    // cdf[lo - 1] <= 2.5 %: P(median < v[lo]) is at most that, so v[lo] with lo = the count of values below.
    int r = Math.max(0, lo - 1);
    return new int[] {r, n - 1 - r};
  }
}
