package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.benchmarks.generator.PerfWorkloads;
import io.fleetkit.benchmarks.impl.CpuTime;
import io.fleetkit.benchmarks.impl.FenzoPeer;
import io.fleetkit.benchmarks.impl.FleetKitHarness;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 * The same bin-packing task for Netflix Fenzo 0.13.8 and FleetKit: 10,000 tasks of 100m CPU / 500Mi on 1,000 hosts
 * of 4 CPU / 32Gi. Both place every task. Each measured operation runs {@link #rounds} such batches (each on a fresh
 * cluster), so that one iteration lasts long enough for the JIT to settle: a single 100 ms batch is dominated by the
 * JIT's state and swings between forks; FleetKit also warms up for more iterations than Fenzo. Score: ms per
 * operation; ms per 10,000 placements = score / rounds. Three forks by default: report the median and spread over
 * forks. With {@code -prof io.fleetkit.benchmarks.impl.CpuTimeProfiler} it also reports the process CPU time of the
 * measured batches (Fenzo evaluates hosts on several threads, FleetKit on one).
 *
 * <p>Fenzo uses its CPU+memory bin-packing fitness with a "good enough" cut-off (fitness &gt; 0.9): for each task it
 * evaluates hosts until one is good enough, and takes the best seen. FleetKit's honest equivalent is
 * {@link #mostAllocatedProfile()}: the usual filters (NodeUnschedulable, NodeName, TaintToleration, NodeAffinity,
 * NodeResourcesFit), scoring by NodeResourcesFit with MostAllocated over cpu and memory (kube's bin-packing
 * strategy), and {@code percentageOfNodesToScore} = 10, which at 1,000 hosts is kube's floor of 100 feasible nodes
 * ({@code minFeasibleNodesToFind}): like Fenzo, FleetKit stops looking once it has enough candidates and picks the
 * fullest of them. Fenzo's measurement also builds its scheduler, leases and TaskRequests (cheap next to its
 * scheduling); FleetKit's nodes are added and its pods built in setUp, and the pods are added to the scheduler (which
 * derives their scheduling info) inside the measurement.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 5)
@Fork(value = 3, jvmArgsAppend = {"-Xms4g", "-Xmx4g"})
public class FenzoComparisonBenchmark {
  public static final int HOSTS = 1_000;
  public static final int TASKS = 10_000;

  /** Batches of 10,000 placements per measured operation. */
  @Param({"5"})
  public int rounds;

  private List<Node> nodes;
  private List<Pod> pods;
  private List<FleetKitHarness> harnesses;

  /** Feasible nodes FleetKit looks for per pod: 10% of 1,000 hosts, kube's minimum of 100. */
  public static final int PERCENTAGE_OF_NODES_TO_SCORE = 10;

  /** FleetKit's counterpart of Fenzo's cpuMemBinPacker with its good-enough cut-off (see the class comment). */
  public static SchedulerProfile mostAllocatedProfile() {
    return SchedulerProfile.builder("default-scheduler")
        .plugin("PrioritySort")
        .plugin("NodeUnschedulable")
        .plugin("NodeName")
        .plugin("TaintToleration", 3)
        .plugin("NodeAffinity", 2)
        .plugin("NodeResourcesFit", 1)
        .pluginArgs("NodeResourcesFit", Map.of("scoringStrategy", Map.of("type", "MostAllocated",
            "resources", List.of(Map.of("name", "cpu", "weight", 1), Map.of("name", "memory", "weight", 1)))))
        .percentageOfNodesToScore(PERCENTAGE_OF_NODES_TO_SCORE)
        .build();
  }

  @Setup(Level.Iteration)
  public void setUp() {
    nodes = hosts();
    pods = tasks();
    harnesses = new ArrayList<>(rounds);
    for (int i = 0; i < rounds; i++) {
      harnesses.add(fleetkitCluster(nodes));
    }
  }

  @TearDown(Level.Iteration)
  public void tearDown() {
    harnesses.forEach(FleetKitHarness::close);
  }

  @Benchmark
  public int fenzo() {
    long[] mark = CpuTime.start();
    int placed = 0;
    for (int i = 0; i < rounds; i++) {
      placed += fenzoBatch();
    }
    CpuTime.stop(mark);
    return placed;
  }

  /**
   * FleetKit's batches are ~15x shorter than Fenzo's, so the same number of warm-up iterations leaves its JIT
   * unsettled (its iterations kept falling through the measured ones): it warms up four times as many.
   */
  @Benchmark
  @Warmup(iterations = 20)
  public int fleetkit() {
    long[] mark = CpuTime.start();
    int placed = 0;
    for (FleetKitHarness h : harnesses) {
      placed += fleetkitBatch(h, pods);
    }
    CpuTime.stop(mark);
    return placed;
  }

  /** The 1,000 hosts as FleetKit nodes. */
  public static List<Node> hosts() {
    ResourceList host = ResourceList.builder().put("cpu", "4").put("memory", "32Gi").put("pods", "110").build();
    return PerfWorkloads.nodes(HOSTS, host);
  }

  /** The 10,000 tasks as FleetKit pods. */
  public static List<Pod> tasks() {
    return PerfWorkloads.pods("default", "task-", TASKS,
        ResourceList.builder().put("cpu", "100m").put("memory", "500Mi").build());
  }

  /** A FleetKit scheduler holding {@code nodes}, ready for one batch. */
  public static FleetKitHarness fleetkitCluster(List<Node> nodes) {
    return new FleetKitHarness(nodes, mostAllocatedProfile(), 0, 42);
  }

  /** One batch for Fenzo: builds its scheduler and places every task. */
  public static int fenzoBatch() {
    int placed = FenzoPeer.placeAll(HOSTS, 4, 32 * 1024, TASKS, 0.1, 500);
    if (placed != TASKS) {
      throw new IllegalStateException("Fenzo placed " + placed + " of " + TASKS);
    }
    return placed;
  }

  /** One batch for FleetKit on a fresh {@link #fleetkitCluster}: places every pod. */
  public static int fleetkitBatch(FleetKitHarness harness, List<Pod> pods) {
    int placed = harness.scheduleAll(pods);
    if (placed != TASKS) {
      throw new IllegalStateException("FleetKit placed " + placed + " of " + TASKS);
    }
    return placed;
  }
}
