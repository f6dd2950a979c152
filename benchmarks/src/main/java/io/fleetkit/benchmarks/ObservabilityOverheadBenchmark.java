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
 * with no registry ({@code off}), with kube-scheduler's metrics into a Prometheus registry ({@code metrics}), and
 * with those metrics plus an OpenTelemetry SDK recording every span, exporting none ({@code metrics+tracing}).
 * All three run in the same JMH run, 3 forks each. Score: milliseconds per measured batch (SingleShotTime).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 8)
@Fork(value = 3, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class ObservabilityOverheadBenchmark {
  @Param({"off", "metrics", "metrics+tracing"})
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
      if (mode.equals("metrics+tracing")) {
        b.tracing(OpenTelemetryTracing.of(OpenTelemetrySdk.builder()
            .setTracerProvider(SdkTracerProvider.builder().build()).build()));
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
