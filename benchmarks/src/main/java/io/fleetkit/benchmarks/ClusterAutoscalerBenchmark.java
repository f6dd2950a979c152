package io.fleetkit.benchmarks;

import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.autoscale.cluster.ClusterAutoscaler;
import io.fleetkit.autoscale.cluster.ScaleUpPlan;
import io.fleetkit.benchmarks.generator.ClusterAutoscaleWorkload;
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

/**
 * The cluster autoscaler's scale-up decision ({@link ClusterAutoscaler#planScaleUp()}: simulate the cluster, filter
 * out the pending pods that fit, binpack the rest onto every pool's template with the scheduler's filters, run the
 * expander) for 1,000 pending pods over 1,000 nodes of 30 pods and 20 pools. Upstream publishes 30-60 s scale-up
 * latency at this size (its loop must stay under 30 s); the decision here should take milliseconds. The parameter is
 * not called {@code nodes} so that the smoke run keeps the full size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms2g", "-Xmx2g"})
public class ClusterAutoscalerBenchmark {
  @Param({"1000"})
  public int clusterNodes;

  @Param({"1000"})
  public int pendingPods;

  @Param({"20"})
  public int pools;

  private ObjectStore store;
  private ClusterAutoscaler autoscaler;

  @Setup(Level.Trial)
  public void setUp() {
    ManualClock clock = ManualClock.atEpoch2026();
    store = ClusterAutoscaleWorkload.build(clusterNodes, pools, pendingPods, clock);
    autoscaler = ClusterAutoscaler.builder(store).clock(clock).seed(42).build();
    ScaleUpPlan plan = autoscaler.planScaleUp();
    if (plan.chosen() == null || plan.unschedulablePods().size() != pendingPods) {
      throw new IllegalStateException("workload: expected " + pendingPods + " unschedulable pods and a scale-up, got "
          + plan.unschedulablePods().size() + " and " + plan.chosen());
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    store.close();
  }

  /** One scale-up decision; returns the chosen node count (consumed by JMH). */
  @Benchmark
  public int scaleUpDecision() {
    ScaleUpPlan plan = autoscaler.planScaleUp();
    return plan.chosen() == null ? 0 : plan.chosen().nodeCount();
  }
}
