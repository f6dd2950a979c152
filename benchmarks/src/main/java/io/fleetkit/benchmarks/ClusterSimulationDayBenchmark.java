package io.fleetkit.benchmarks;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.simulator.ClusterSimulation;
import io.fleetkit.simulator.SimulationRun;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * The whole-cluster simulator's day of {@link ClusterSimulationBenchmark} under JMH: {@code clusterNodes} nodes,
 * {@code clusterNodes / 10} Deployments of 100 replicas in one namespace, HPA and cluster autoscaler on, two
 * node failures, 24 simulated hours. One invocation is one whole day (single-shot): the score is its wall time.
 * Each invocation also prints the CPU time of the simulation thread and the number of timeline events (the same in
 * every run).
 *
 * <p>A fork's first warm-up iteration is a cold JVM's day (the figure {@code fleetkit simulate} pays once per
 * process); the measured iterations are a warmed-up JVM's, as a program that runs many scenarios in one process sees.
 * JMH prints both.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main ClusterSimulationDayBenchmark   # 1,000 nodes
 * java -cp benchmarks/target/benchmarks.jar org.openjdk.jmh.Main ClusterSimulationDayBenchmark -p clusterNodes=5000 \
 *     -jvmArgsAppend -Xmx2g -wi 2 -i 2</pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 4)
@Measurement(iterations = 3)
@Fork(value = 3, jvmArgsAppend = {"-Xmx1g", "-XX:+UseParallelGC"})
public class ClusterSimulationDayBenchmark {
  @Param({"1000"})
  public int clusterNodes;

  @Param({"24"})
  public int simulatedHours;

  private List<ApiObject<?>> objects;

  @Setup(Level.Iteration)
  public void setUp() {
    objects = ClusterSimulationBenchmark.cluster(clusterNodes, clusterNodes / 10, 100,
        Duration.ofHours(simulatedHours), ScenarioFeatures.ALL);
  }

  @Benchmark
  public SimulationRun day() {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long cpuStart = threads.getCurrentThreadCpuTime();
    SimulationRun run = ClusterSimulation.builder().objects(objects).podEvents(false).build().run();
    System.out.printf("  (day: %d ms CPU of the simulation thread, %d events)%n",
        (threads.getCurrentThreadCpuTime() - cpuStart) / 1_000_000, run.timeline().size());
    return run;
  }
}
