package io.fleetkit.benchmarks;

import io.fleetkit.benchmarks.generator.PerfCase;
import io.fleetkit.benchmarks.impl.FleetKitHarness;
import io.fleetkit.observability.micrometer.MicrometerMetrics;
import io.fleetkit.observability.otel.OpenTelemetryTracing;
import io.fleetkit.scheduler.DefaultPlugins;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.lang.management.ManagementFactory;
import java.util.List;
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
 * {@link ObservabilityOverheadBenchmark}'s pair measured side by side, for a machine whose load drifts: each
 * iteration builds two schedulers on the same SchedulingBasic cluster (5000 nodes), one without observability
 * ({@code off}) and one with kube-scheduler's metrics into a Prometheus registry and OpenTelemetry tracing at the
 * {@link ObservabilityOverheadBenchmark#TRACE_RATIO} ratio sampler ({@code on}; {@code tracing=all} records every
 * span), and schedules the same 10,000 measured pods on both, one after the other, the order alternating between
 * iterations. Seconds apart, both batches meet the same load, so the ratio of the two is far steadier than the ratio
 * of two forks.
 *
 * <p>Both schedulers share one JVM, so the JIT sees both paths: the {@code off} batch runs code compiled with the
 * observability branches taken half the time, where a JVM without a registry never takes them. That makes
 * {@code off} slightly slower than in a JVM of its own (the overhead measured here is at most slightly low); compare
 * with {@link ObservabilityOverheadBenchmark}'s forks, which have no such sharing.
 *
 * <p>Results (secondary): {@code offCpuMs}, {@code onCpuMs} (process CPU time per batch) and {@code offMs},
 * {@code onMs} (wall time per batch); the primary score is the pair's wall time.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 8)
@Fork(value = 3, jvmArgsAppend = {"-Xms6g", "-Xmx6g"})
public class ObservabilityOverheadPairedBenchmark {
  /** {@code ratio}: the production sampler; {@code all}: every span recorded. */
  @Param({"ratio"})
  public String tracing;

  private PerfCase perfCase;
  private FleetKitHarness off;
  private FleetKitHarness on;
  private int iteration;

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  @Setup(Level.Trial)
  public void load() {
    perfCase = PerfCase.of("SchedulingBasic", 5000);
  }

  @Setup(Level.Iteration)
  public void setUp() {
    if (!tracing.equals("ratio") && !tracing.equals("all")) {
      throw new IllegalArgumentException("tracing " + tracing + " must be ratio or all");
    }
    off = harness(false);
    on = harness(true);
    iteration++;
  }

  private FleetKitHarness harness(boolean observed) {
    FleetKitHarness h = new FleetKitHarness(perfCase.nodes(), DefaultPlugins.profile(), 0, 42, b -> {
      if (observed) {
        Sampler sampler = tracing.equals("all") ? Sampler.alwaysOn()
            : Sampler.parentBased(Sampler.traceIdRatioBased(ObservabilityOverheadBenchmark.TRACE_RATIO));
        b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
        b.tracing(OpenTelemetryTracing.of(OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().setSampler(sampler).build()).build()));
      }
    });
    List<io.fleetkit.api.core.Pod> init = perfCase.initPods();
    if (h.scheduleAll(init) != init.size()) {
      throw new IllegalStateException("not every init pod bound");
    }
    return h;
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    off.close();
    on.close();
  }

  /** Per-batch CPU and wall time of each of the two schedulers. */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Times {
    public double offCpuMs;
    public double onCpuMs;
    public double offMs;
    public double onMs;

    @Setup(Level.Iteration)
    public void reset() {
      offCpuMs = onCpuMs = offMs = onMs = 0;
    }
  }

  /** Schedules the measured pods on both schedulers; returns how many were bound in all. */
  @Benchmark
  public int schedulePair(Times t) {
    int bound = 0;
    for (int k = 0; k < 2; k++) {
      boolean observed = (k == 0) == (iteration % 2 == 0);
      // Collect the garbage the set-up or the other batch left, outside the measured window: otherwise whichever
      // batch runs first pays for it (measured: about a third more CPU time in the first position).
      System.gc();
      long cpu0 = OS.getProcessCpuTime();
      long wall0 = System.nanoTime();
      bound += (observed ? on : off).scheduleAll(perfCase.measuredPods());
      double cpuMs = (OS.getProcessCpuTime() - cpu0) / 1e6;
      double wallMs = (System.nanoTime() - wall0) / 1e6;
      if (observed) {
        t.onCpuMs += cpuMs;
        t.onMs += wallMs;
      } else {
        t.offCpuMs += cpuMs;
        t.offMs += wallMs;
      }
    }
    return bound;
  }
}
