package io.fleetkit.benchmarks;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.benchmarks.impl.CloudSimPlusPeer;
import io.fleetkit.simulator.ClusterSimulation;
import io.fleetkit.simulator.SimulationRun;
import java.time.Duration;
import java.util.List;
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
 * The whole-cluster simulator against CloudSim Plus 8.5.5 (a Java discrete-event cloud simulator) on one day both can
 * model: {@code clusterNodes} 16-CPU machines, {@code clusterNodes × 10} workloads of 100m CPU kept 60 % busy,
 * {@code simulatedHours} simulated hours updated every 5 minutes, machines 1 and 2 failing at a quarter and at half of
 * the day and their workloads replaced elsewhere. FleetKit runs the day of {@link ClusterSimulationBenchmark} with its
 * autoscalers off (Deployments of 100 replicas, the scheduler, kubelets, node lifecycle and taint eviction through the
 * store); CloudSim Plus runs {@link CloudSimPlusPeer}'s model of it, with its worst-fit placement (the spreading nearest
 * kube's default) and its first-fit one. One invocation is one whole day (single-shot); a fork's first warm-up day is
 * a cold JVM's. The autoscaled day has no CloudSim Plus counterpart ({@link ClusterSimulationDayBenchmark}).
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main CloudSimPlusComparisonBenchmark</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 3)
@Fork(value = 3, jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class CloudSimPlusComparisonBenchmark {
  /** Machines; ten workloads each. */
  @Param({"1000"})
  public int clusterNodes;

  @Param({"24"})
  public int simulatedHours;

  private List<ApiObject<?>> objects;

  @Setup(Level.Iteration)
  public void setUp() {
    objects = ClusterSimulationBenchmark.cluster(clusterNodes, clusterNodes / 10, 100,
        Duration.ofHours(simulatedHours), new ScenarioFeatures(false, false, false));
  }

  @Benchmark
  public SimulationRun fleetkit() {
    SimulationRun run = ClusterSimulation.builder().objects(objects).podEvents(false).build().run();
    long ready = run.summary().deployments().stream().filter(d -> d.ready() == d.replicas()).count();
    if (ready != clusterNodes / 10) {
      throw new IllegalStateException("fleetkit: " + ready + " of " + clusterNodes / 10 + " Deployments ready");
    }
    return run;
  }

  @Benchmark
  public CloudSimPlusPeer.Day cloudSimPlusWorstFit() {
    return checked(CloudSimPlusPeer.run(clusterNodes, clusterNodes * 10, Duration.ofHours(simulatedHours),
        CloudSimPlusPeer.Placement.WORST_FIT));
  }

  @Benchmark
  public CloudSimPlusPeer.Day cloudSimPlusFirstFit() {
    return checked(CloudSimPlusPeer.run(clusterNodes, clusterNodes * 10, Duration.ofHours(simulatedHours),
        CloudSimPlusPeer.Placement.FIRST_FIT));
  }

  /** The day's workloads all ran to the end: every cloudlet finished but those of the VMs lost with a host. */
  private CloudSimPlusPeer.Day checked(CloudSimPlusPeer.Day day) {
    if (day.finished() != day.vms() - day.lost()) {
      throw new IllegalStateException("cloudSimPlus: " + day);
    }
    return day;
  }
}
