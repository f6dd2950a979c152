package io.fleetkit.benchmarks;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.simulator.Simulation;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Map;

/**
 * A measured main (not JMH: the figure of interest is one run's simulated time next to its wall time): creates
 * Deployments worth {@code pods} pods on a simulated cluster and runs the {@link Simulation} (store, ReplicaSet and
 * Deployment controllers, garbage collector, the real scheduler, node lifecycle, one simulated kubelet per node)
 * until every pod is Running and Ready. Reports simulated seconds, wall milliseconds, pods per wall second and the
 * CPU time of the simulation thread (the simulation is single-threaded; CPU time is the robust figure on a busy
 * machine).
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.fleetkit.benchmarks.SimulationBenchmark [pods] [perDeployment]
 *     [namespaced|one] [nodes]</pre>
 */
public final class SimulationBenchmark {
  private SimulationBenchmark() {}

  /** One run's figures. */
  public record Result(int pods, int deployments, int nodes, Duration simulated, long wallMillis, long cpuMillis,
      boolean done) {
    /** Pods brought to Running per wall-clock second. */
    public double podsPerWallSecond() {
      return pods * 1000.0 / Math.max(1, wallMillis);
    }
  }

  /**
   * Runs one simulation: {@code pods / perDeployment} Deployments of {@code perDeployment} replicas (100m CPU each)
   * on one 16-CPU node per 50 pods.
   */
  public static Result run(int pods, int perDeployment, long seed) {
    return run(pods, perDeployment, seed, false);
  }

  /**
   * As {@link #run(int, int, long)}; with {@code namespacePerDeployment} each Deployment gets its own namespace,
   * which takes the controllers' per-namespace pod listing (quadratic in one namespace) out of the figure.
   */
  public static Result run(int pods, int perDeployment, long seed, boolean namespacePerDeployment) {
    return run(pods, perDeployment, seed, namespacePerDeployment, Math.max(1, (pods + 49) / 50));
  }

  /** As {@link #run(int, int, long, boolean)} on {@code nodes} nodes. */
  public static Result run(int pods, int perDeployment, long seed, boolean namespacePerDeployment, int nodes) {
    int deployments = Math.max(1, pods / perDeployment);
    Simulation.Builder b = Simulation.builder().seed(seed).podEvents(false);
    for (int i = 0; i < nodes; i++) {
      b.object(Node.builder().name("node-" + i).capacity(ResourceList.builder().put("cpu", "16")
          .put("memory", "64Gi").put("pods", "110").build()).build());
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    long cpuStart = threads.getCurrentThreadCpuTime();
    try (Simulation sim = b.build()) {
      for (int i = 0; i < deployments; i++) {
        String ns = namespacePerDeployment ? "ns-" + i : "default";
        sim.store().create(Deployment.builder().namespace(ns).name("app-" + i).replicas(perDeployment)
            .matchLabels(Map.of("app", "app-" + i))
            .podSpec(PodSpec.builder().container("app", "img:1", ResourceList.ofCpuMemory(100, 0)).build())
            .build());
      }
      int total = deployments * perDeployment;
      boolean done = sim.runUntil(s -> running(s) == total, Duration.ofHours(1));
      long wall = (System.nanoTime() - start) / 1_000_000;
      long cpu = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
      return new Result(total, deployments, nodes, sim.elapsed(), wall, cpu, done);
    }
  }

  private static long running(Simulation sim) {
    return sim.store().list(Pod.class, "", (Pod p) -> p.status().phase() == PodPhase.Running).items().size();
  }

  public static void main(String[] args) {
    int pods = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
    int per = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    boolean spread = args.length > 2 && args[2].equals("namespaced");
    int nodes = args.length > 3 ? Integer.parseInt(args[3]) : Math.max(1, (pods + 49) / 50);
    PrintStream out = System.out;
    run(Math.min(pods, 500), per, 1, spread); // warm-up
    for (int i = 0; i < 2; i++) {
      Result r = run(pods, per, i, spread, nodes);
      out.printf("%d pods (%d Deployments x %d%s) on %d nodes: all Running after %d s simulated, %d ms wall"
          + " (%.0f pods/s), %d ms CPU of the simulation thread%s%n", r.pods(), r.deployments(), per,
          spread ? ", one namespace each" : "", r.nodes(), r.simulated().toSeconds(), r.wallMillis(),
          r.podsPerWallSecond(), r.cpuMillis(),
          r.done() ? "" : " (NOT DONE)");
    }
  }
}
