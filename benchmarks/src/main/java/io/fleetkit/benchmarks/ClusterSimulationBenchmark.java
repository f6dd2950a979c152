package io.fleetkit.benchmarks;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.MetricSpec;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.FaultType;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFault;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.autoscale.cluster.ClusterAutoscaler;
import io.fleetkit.simulator.ClusterSimulation;
import io.fleetkit.simulator.SimulationRun;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A measured main (not JMH: one run's wall time against its simulated time is the figure) for the whole-cluster
 * what-if simulator at scale: {@code nodes} 16-CPU nodes in one NodePool (the cluster autoscaler may grow it by 10%
 * and shrink it), {@code deployments} Deployments of {@code replicas} replicas (100m CPU each) in one namespace, each
 * with an HPA (target 60%) and a constant load that keeps it at its size, two node failures (node-1 at a quarter and
 * node-2 at half of the run; both carry the scale-down-disabled annotation, so that the autoscaler's consolidation
 * leaves them in place and they hold pods when they fail), sampled every 5 minutes. Prints wall time, simulated
 * seconds per wall second, timeline events per wall second, CPU time of the simulation thread and the live heap (heap
 * used right after a full collection, taken every simulated hour while the simulation runs). Those collections are
 * the measurement's, not the simulation's: their wall time is reported apart and left out of the wall time and of the
 * rates.
 *
 * <pre>java -Xmx1g -XX:+UseParallelGC -cp benchmarks/target/benchmarks.jar \
 *     io.fleetkit.benchmarks.ClusterSimulationBenchmark [nodes=1000] [deployments=100] [replicas=100] [hours=24] \
 *     [features=all|none|hpa|ca] [runs=1] [--manifests DIR]</pre>
 *
 * <p>With {@code --manifests DIR} it runs nothing and writes the run's objects, Scenario included, as one YAML file
 * ({@code DIR/cluster.yaml}, {@link #writeManifests}), so that the same day can be timed through the command line:
 * {@code ./fleetkit simulate DIR --output json --no-pod-events --quiet}.
 *
 * <p>Before the measured runs it runs a 20-node hour, which loads the classes and lets C1 compile much of the code, so
 * the first measured run is a nearly cold JVM's (most of its hot code still interpreted or compiled without C2's
 * optimizations); a JVM that runs nothing before the day takes longer ({@link ClusterSimulationDayBenchmark} with
 * {@code -wi 0 -i 1} measures that). {@code runs} above 1 runs the same day again in the same JVM and prints each run:
 * the later ones are a warmed-up JVM's, as a program that runs many scenarios sees.
 */
public final class ClusterSimulationBenchmark {
  private ClusterSimulationBenchmark() {}

  /** One run's figures. */
  public record Result(int nodes, int pods, Duration simulated, long wallMillis, long cpuMillis, int events,
      long liveHeapBytes, long heapMeasurementMillis, boolean allReady, int nodeFailures) {
    public double simulatedSecondsPerWallSecond() {
      return simulated.toMillis() / (double) Math.max(1, wallMillis);
    }

    public double eventsPerWallSecond() {
      return events * 1000.0 / Math.max(1, wallMillis);
    }
  }

  /** The objects and scenario of one run. */
  public static List<ApiObject<?>> cluster(int nodes, int deployments, int replicas, Duration length,
      ScenarioFeatures features) {
    List<ApiObject<?>> out = new ArrayList<>();
    ResourceList capacity = ResourceList.builder().put("cpu", "16").put("memory", "64Gi").put("pods", "110").build();
    out.add(NodePool.builder().name("general").capacity(capacity).minSize(0).maxSize(nodes + nodes / 10)
        .startupDelay(Duration.ofMinutes(2)).pricePerHour(0.77).build());
    for (int i = 0; i < nodes; i++) {
      Node.Builder node = Node.builder().name("node-" + i).label(NodePool.POOL_LABEL, "general")
          .label("topology.kubernetes.io/zone", "zone-" + (i % 3)).capacity(capacity);
      if (i == 1 || i == 2) {
        // the two nodes that fail: kept from scale-down, so that they are still there (with pods) when they fail
        node.annotation(ClusterAutoscaler.SCALE_DOWN_DISABLED, "true");
      }
      out.add(node.build());
    }
    List<WorkloadLoad> loads = new ArrayList<>();
    for (int i = 0; i < deployments; i++) {
      String name = "app-" + i;
      out.add(Deployment.builder().namespace("default").name(name).replicas(replicas)
          .matchLabels(Map.of("app", name))
          .podSpec(PodSpec.builder().container("app", "img:1", ResourceList.ofCpuMemory(100, 0)).build()).build());
      out.add(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("default").name(name).build(),
          HorizontalPodAutoscalerSpec.builder().scaleTargetRef(CrossVersionObjectReference.deployment(name))
              .minReplicas(1).maxReplicas(replicas * 2).metric(MetricSpec.resourceUtilization("cpu", 60)).build()));
      // 1 millicore per request/s: 60 m per pod at 60% of 100 m, so replicas x 60 requests/s keeps the size
      loads.add(new WorkloadLoad("Deployment", "default", name, LoadPattern.constant(replicas * 60.0), 1, 0));
    }
    List<ScenarioFault> faults = List.of(
        new ScenarioFault(length.dividedBy(4), FaultType.NodeFailure, "node-1", null),
        new ScenarioFault(length.dividedBy(2), FaultType.NodeFailure, "node-2", null));
    out.add(new Scenario(ObjectMeta.builder().name("scale").build(), new ScenarioSpec(length, 1,
        Duration.ofMinutes(5), loads, faults, features)));
    return out;
  }

  public static Result run(int nodes, int deployments, int replicas, Duration length, ScenarioFeatures features) {
    return run(nodes, deployments, replicas, length, features, false);
  }

  /** As {@link #run(int, int, int, Duration, ScenarioFeatures)}; {@code hourly} prints progress every hour. */
  public static Result run(int nodes, int deployments, int replicas, Duration length, ScenarioFeatures features,
      boolean hourly) {
    List<ApiObject<?>> objects = cluster(nodes, deployments, replicas, length, features);
    System.gc();
    var threads = ManagementFactory.getThreadMXBean();
    long start = System.nanoTime();
    long cpuStart = threads.getCurrentThreadCpuTime();
    long[] liveHeap = {0};
    long[] heapMeasurementNanos = {0};
    int[] samples = {0};
    SimulationRun run = ClusterSimulation.builder().objects(objects).podEvents(false).progress(p -> {
      if (++samples[0] % 12 == 0) { // every simulated hour at 5-minute samples: the live set, after a full GC
        long gcStart = System.nanoTime();
        System.gc();
        liveHeap[0] = Math.max(liveHeap[0], ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
        heapMeasurementNanos[0] += System.nanoTime() - gcStart;
        if (hourly) {
          System.err.printf("  %s simulated: %d ms wall, %d ms CPU, %d events%n", p.simulated(),
              (System.nanoTime() - start - heapMeasurementNanos[0]) / 1_000_000,
              (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000, p.events());
        }
      }
    }).build().run();
    long wall = (System.nanoTime() - start - heapMeasurementNanos[0]) / 1_000_000;
    long cpu = (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000;
    boolean ready = run.summary().deployments().stream().allMatch(d -> d.ready() == d.replicas());
    int failures = (int) run.timeline().stream().filter(e -> e.kind().equals("NodeFailed")).count();
    return new Result(nodes, deployments * replicas, run.duration(), wall, cpu, run.timeline().size(),
        liveHeap[0], heapMeasurementNanos[0] / 1_000_000, ready, failures);
  }

  public static void main(String[] arguments) {
    List<String> given = new ArrayList<>(List.of(arguments));
    Path manifests = null;
    int flag = given.indexOf("--manifests");
    if (flag >= 0) {
      if (flag + 1 >= given.size()) {
        throw new IllegalArgumentException("ClusterSimulationBenchmark: --manifests needs a directory");
      }
      manifests = Path.of(given.get(flag + 1));
      given.subList(flag, flag + 2).clear();
    }
    String[] args = given.toArray(String[]::new);
    int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    int deployments = args.length > 1 ? Integer.parseInt(args[1]) : 100;
    int replicas = args.length > 2 ? Integer.parseInt(args[2]) : 100;
    Duration length = Duration.ofHours(args.length > 3 ? Long.parseLong(args[3]) : 24);
    String f = args.length > 4 ? args[4] : "all";
    ScenarioFeatures features = switch (f) {
      case "none" -> new ScenarioFeatures(false, false, false);
      case "hpa" -> new ScenarioFeatures(true, false, false);
      case "ca" -> new ScenarioFeatures(false, true, false);
      default -> ScenarioFeatures.ALL;
    };
    int runs = args.length > 5 ? Integer.parseInt(args[5]) : 1;
    PrintStream out = System.out;
    if (manifests != null) {
      Path file = writeManifests(cluster(nodes, deployments, replicas, length, features), manifests);
      out.printf("wrote %s: %d nodes, %d Deployments x %d, %d h; time it with ./fleetkit simulate %s --output json"
          + " --no-pod-events --quiet%n", file, nodes, deployments, replicas, length.toHours(), manifests);
      return;
    }
    run(Math.min(nodes, 20), 2, 10, Duration.ofHours(1), features); // warm-up
    for (int i = 1; i <= runs; i++) {
      if (runs > 1) {
        out.printf("run %d of %d%n", i, runs);
      }
      print(out, run(nodes, deployments, replicas, length, features, true), deployments, replicas, f, length);
    }
  }

  /**
   * Writes {@code objects} (a {@link #cluster} run's) to {@code dir}/cluster.yaml as Kubernetes manifests, which
   * {@code fleetkit simulate dir} reads back as the same run.
   *
   * @return the file written
   * @throws UncheckedIOException if the directory or the file cannot be written
   */
  public static Path writeManifests(List<ApiObject<?>> objects, Path dir) {
    Path file = dir.resolve("cluster.yaml");
    try {
      Files.createDirectories(dir);
      Files.writeString(file, KubernetesYaml.dump(objects));
    } catch (IOException e) {
      throw new UncheckedIOException("ClusterSimulationBenchmark: cannot write " + file + ": " + e.getMessage(), e);
    }
    return file;
  }

  private static void print(PrintStream out, Result r, int deployments, int replicas, String f, Duration length) {
    out.printf("%d nodes, %d pods (%d Deployments x %d, one namespace), features %s, %d h simulated: %d ms wall,"
        + " %.0f simulated s per wall s, %d events (%.0f/s), %d ms CPU of the simulation thread, live heap"
        + " %d MB (the hourly full collections that measure it: %d ms of wall time, not counted above), %d node"
        + " failure(s)%s%n",
        r.nodes(), r.pods(), deployments, replicas, f, length.toHours(), r.wallMillis(),
        r.simulatedSecondsPerWallSecond(), r.events(), r.eventsPerWallSecond(), r.cpuMillis(),
        r.liveHeapBytes() / (1024 * 1024), r.heapMeasurementMillis(), r.nodeFailures(),
        r.allReady() ? "" : " (NOT ALL READY AT THE END)");
  }
}
