package io.fleetkit.benchmarks;

import io.fleetkit.benchmarks.generator.BackfillScenario;
import io.fleetkit.queueing.backfill.BackfillConfig;
import io.fleetkit.queueing.backfill.BackfillPlan;
import io.fleetkit.queueing.backfill.BackfillScheduler;
import io.fleetkit.queueing.backfill.Partition;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One Slurm-style backfill pass ({@link BackfillScenario}): {@code pending} jobs (Slurm's default bf_max_job_test is
 * 500) planned against the running jobs of a {@code poolNodes}-node pool. Jobs tested per second = pending / score.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BackfillBenchmark {
  @Param({"1000"})
  public int poolNodes;

  @Param({"500"})
  public int pending;

  private BackfillScenario scenario;
  private BackfillScheduler backfill;

  @Setup
  public void setUp() {
    scenario = BackfillScenario.of(poolNodes, pending, 42);
    backfill = new BackfillScheduler(BackfillConfig.DEFAULT.withWindow(Duration.ofDays(2)),
        List.of(Partition.of("batch", null, Duration.ofDays(1))));
  }

  @Benchmark
  public BackfillPlan plan() {
    return backfill.plan(scenario.now(), scenario.nodes(), scenario.running(), scenario.pending());
  }
}
