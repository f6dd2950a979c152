package io.fleetkit.benchmarks;

import io.fleetkit.benchmarks.generator.PerfCase;
import io.fleetkit.benchmarks.impl.CpuTime;
import io.fleetkit.benchmarks.impl.FleetKitHarness;
import io.fleetkit.scheduler.DefaultPlugins;
import java.util.concurrent.TimeUnit;
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
import org.openjdk.jmh.infra.BenchmarkParams;

/**
 * kube-scheduler's scheduler_perf workloads on FleetKit's scheduler. Each invocation builds the cluster and places
 * the init pods (not measured), then schedules every measured pod (measured). The score is the time per measured
 * pod; pods/s = 1e6 / score (us/op). {@code pct} is percentageOfNodesToScore ("0" = kube's adaptive default).
 * With {@code -prof io.fleetkit.benchmarks.impl.CpuTimeProfiler} it also reports the CPU time of the measured work.
 *
 * <p>Warm-up: 20 iterations, so that the measured ones run the per-pod path (queue, snapshot update, assume, bind)
 * compiled by C2, as in a scheduler that has been running for a while. At 5,000 nodes the CPU per iteration keeps
 * falling for 10 to 17 iterations on a loaded 2-core machine (SchedulingBasic from about 110 ms per 10,000 pods in
 * iterations 4 to 6 to about 60 ms; anti-affinity, topology spreading likewise; 100% scoring after 5 to 9):
 * C2 compiles the per-pod methods only after the Filter and Score loops and the generator's validation, seconds into
 * the fork. Three warm-up iterations measured that compilation, not the scheduler (docs/benchmarks.md).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 20)
@Measurement(iterations = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class SchedulingThroughputBenchmark {
  @Param({"SchedulingBasic", "SchedulingPodAntiAffinity", "SchedulingPodAffinity", "SchedulingNodeAffinity",
      "TopologySpreading", "PreferredTopologySpreading", "PreemptionBasic", "Unschedulable"})
  public String workload;

  @Param({"500", "5000"})
  public int nodes;

  @Param({"0"})
  public int pct;

  /** Scheduler threads; "0" = the engine's default (the scheduling thread alone on 2 cores). */
  @Param({"0"})
  public int threads;

  /**
   * Binding threads ({@code SchedulerBuilder.bindParallelism}); "-1" = the engine's default (0: bind inline on the
   * scheduling thread).
   */
  @Param({"-1"})
  public int bindParallelism;

  private PerfCase perfCase;
  private FleetKitHarness harness;

  @Setup(Level.Iteration)
  public void setUp(BenchmarkParams params) {
    perfCase = PerfCase.of(workload, nodes);
    harness = new FleetKitHarness(perfCase.nodes(),
        DefaultPlugins.profile().toBuilder().percentageOfNodesToScore(pct == 0 ? null : pct).build(), threads, 42,
        b -> {
          if (bindParallelism >= 0) {
            b.bindParallelism(bindParallelism);
          }
        });
    int bound = harness.scheduleAll(perfCase.initPods());
    if (bound != perfCase.initPods().size()) {
      throw new IllegalStateException(workload + ": only " + bound + " of " + perfCase.initPods().size()
          + " init pods were bound");
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    harness.close();
  }

  /** Schedules the measured pods; returns how many were bound (consumed by JMH). */
  @Benchmark
  public int schedule() {
    long[] mark = CpuTime.start();
    int bound = harness.scheduleAll(perfCase.measuredPods());
    CpuTime.stop(mark);
    return bound;
  }
}
