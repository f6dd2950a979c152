package io.fleetkit.benchmarks;

import io.fleetkit.benchmarks.generator.GangWorkloads;
import io.fleetkit.benchmarks.impl.FleetKitHarness;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.plugins.coscheduling.CoschedulingPlugin;
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
 * Gang scheduling throughput (cf. scheduler_perf's podgroup/gangscheduling workloads): {@code nodes * 3 / 5} gangs
 * of 4-8 pods (3000 gangs, 18,000 pods on 5000 nodes) scheduled by the real {@link io.fleetkit.scheduler.Scheduler}
 * with {@link CoschedulingPlugin#enableIn} on the default profile (Permit waits until a gang's minMember are
 * reserved). One invocation schedules every pod; pods/s = pods / score. Cluster building is not measured.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class GangSchedulingBenchmark {
  @Param({"5000"})
  public int nodes;

  private GangWorkloads.Case workload;
  private FleetKitHarness harness;

  @Setup(Level.Iteration)
  public void setUp() {
    workload = GangWorkloads.of(nodes, nodes * 3 / 5);
    harness = new FleetKitHarness(workload.nodes(), CoschedulingPlugin.enableIn(DefaultPlugins.profile()), 0, 42);
    workload.groups().forEach(harness.scheduler()::addObject);
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    harness.close();
  }

  /** Schedules every gang; returns how many pods were bound (all of them: the cluster has room). */
  @Benchmark
  public int schedule() {
    int bound = harness.scheduleAll(workload.pods());
    if (bound != workload.pods().size()) {
      throw new IllegalStateException("gang benchmark: only " + bound + " of " + workload.pods().size()
          + " pods were bound");
    }
    return bound;
  }

  /** The pods one invocation schedules, for the report. */
  static int pods(int nodes) {
    return GangWorkloads.of(nodes, nodes * 3 / 5).pods().size();
  }
}
