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
 * What metrics and tracing cost the scheduler: scheduler_perf's SchedulingBasic (5000 nodes, 10,000 measured pods)
 * in one of these modes, the pair {@code off} and {@code metrics+tracing} by default, so that both run in the same
 * JMH run (3 forks each):
 * <ul>
 *   <li>{@code off}: no registry, no tracing (the scheduler holds no instruments and skips every hook);
 *   <li>{@code metrics}: kube-scheduler's metrics into a Micrometer Prometheus registry, plugin durations sampled in
 *       10 % of cycles;
 *   <li>{@code metrics+tracing}: those metrics plus an OpenTelemetry SDK (a span processor that drops every span:
 *       without any processor the SDK hands out the no-op tracer) with the sampler a
 *       production setup uses, {@code parentBased(traceIdRatioBased(}{@value #TRACE_RATIO}{@code ))}: one attempt in
 *       ten is traced with its extension-point children; the others cost one unsampled span start;
 *   <li>{@code metrics+tracing-all}: the same with every span recorded ({@code alwaysOn}), the worst case.
 * </ul>
 * Score: milliseconds per measured batch (SingleShotTime); {@code schedule:cpuMs} is the process CPU time the batch
 * took.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 3, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ObservabilityOverheadBenchmark {
  /** The share of scheduling attempts traced in mode {@code metrics+tracing}. */
  public static final double TRACE_RATIO = 0.1;

  @Param({"off", "metrics+tracing"})
  public String mode;

  @Param({"5000"})
  public int nodes;

  private PerfCase perfCase;
  private FleetKitHarness harness;

  @Setup(Level.Iteration)
  public void setUp() {
    perfCase = PerfCase.of("SchedulingBasic", nodes);
    harness = new FleetKitHarness(perfCase.nodes(), DefaultPlugins.profile(), 0, 42, b -> {
      if (!mode.equals("off")) {
        b.metrics(MicrometerMetrics.of(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT)));
      }
      if (mode.startsWith("metrics+tracing")) {
        Sampler sampler = mode.equals("metrics+tracing-all") ? Sampler.alwaysOn()
            : Sampler.parentBased(Sampler.traceIdRatioBased(TRACE_RATIO));
        b.tracing(OpenTelemetryTracing.of(OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().setSampler(sampler)
                .addSpanProcessor(ObservabilityOverheadPairedBenchmark.DROP).build()).build()));
      } else if (!mode.equals("metrics") && !mode.equals("off")) {
        throw new IllegalArgumentException("mode " + mode + " must be off, metrics, metrics+tracing or "
            + "metrics+tracing-all");
      }
    });
    int bound = harness.scheduleAll(perfCase.initPods());
    if (bound != perfCase.initPods().size()) {
      throw new IllegalStateException("only " + bound + " of " + perfCase.initPods().size() + " init pods bound");
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    harness.close();
  }

  /**
   * The process CPU time of the measured batch, reported beside the wall time as the secondary result
   * {@code schedule:cpuMs}: on a machine shared with other builds the wall time mostly measures the neighbours, while
   * the CPU time this JVM spent on the batch (scheduling, its worker threads and GC) changes far less.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class Cpu {
    public double cpuMs;

    @Setup(Level.Iteration)
    public void reset() {
      cpuMs = 0;
    }
  }

  private static final com.sun.management.OperatingSystemMXBean OS =
      (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();

  /** Schedules the measured pods; returns how many were bound. */
  @Benchmark
  public int schedule(Cpu cpu) {
    long start = OS.getProcessCpuTime();
    int bound = harness.scheduleAll(perfCase.measuredPods());
    cpu.cpuMs += (OS.getProcessCpuTime() - start) / 1e6;
    return bound;
  }
}
