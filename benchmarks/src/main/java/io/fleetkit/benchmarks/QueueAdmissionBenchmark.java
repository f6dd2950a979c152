package io.fleetkit.benchmarks;

import io.fleetkit.benchmarks.generator.QueueScenario;
import io.fleetkit.queueing.AdmissionEngine;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * Kueue-style queue admission throughput: {@code workloads} queued workloads across {@code clusterQueues}
 * ClusterQueues of one cohort ({@link QueueScenario}). Setup (not measured) builds the engine and queues every
 * workload; the measured operation runs scheduling cycles until every workload is admitted. Workloads admitted per
 * second = workloads / score (s/op).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3)
@Measurement(iterations = 10)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class QueueAdmissionBenchmark {
  @Param({"10000"})
  public int workloads;

  @Param({"8"})
  public int clusterQueues;

  @Param({"false", "true"})
  public boolean fairSharing;

  private QueueScenario scenario;
  private AdmissionEngine engine;

  @Setup(Level.Trial)
  public void scenario() {
    scenario = QueueScenario.of(clusterQueues, workloads, 42);
  }

  @Setup(Level.Iteration)
  public void queue() {
    engine = scenario.engine(fairSharing);
  }

  /** Admits every queued workload; returns how many were admitted (consumed by JMH, checked by the smoke test). */
  @Benchmark
  public int admitAll() {
    engine.scheduleUntilIdle(Integer.MAX_VALUE);
    int admitted = engine.admittedCount();
    if (admitted != workloads) {
      throw new IllegalStateException("only " + admitted + " of " + workloads + " workloads were admitted");
    }
    return admitted;
  }
}
