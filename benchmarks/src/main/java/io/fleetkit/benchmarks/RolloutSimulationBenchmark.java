package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.reconcile.node.HealthSource;
import io.fleetkit.simulator.Simulation;
import java.time.Duration;
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
 * The cost of progressive delivery in the simulation: {@code rollouts} canary Rollouts of 4 replicas (steps
 * setWeight 25, pause 10 s, setWeight 50, pause 10 s) on 10 nodes, each pod with a readiness probe (period 5 s,
 * ready 5 s after start). One invocation ships a new image to every Rollout and runs the simulation until all are
 * Healthy again (about 40 s of simulated time): store, Rollout, ReplicaSet and scheduler work, probe ticks and
 * kubelets on one thread. The score is wall time per full rollout of all of them.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RolloutSimulationBenchmark {
  @Param({"100"})
  public int rollouts;

  private Simulation sim;
  private int version = 1;

  private static PodTemplateSpec template(int version) {
    var probe = io.fleetkit.api.core.Probe.builder(io.fleetkit.api.core.ProbeHandler.HttpGet.of("/ready", 8080))
        .periodSeconds(5).build();
    var container = io.fleetkit.api.core.Container.of("app", "app:" + version, ResourceList.ofCpuMemory(10, 0))
        .withProbes(null, probe, null);
    return new PodTemplateSpec(ObjectMeta.builder().labels(Map.of("app", "web"))
        .annotations(Map.of(HealthSource.READY_AFTER, "5")).build(), PodSpec.builder().container(container).build());
  }

  @Setup(Level.Trial)
  public void setUp() {
    Simulation.Builder b = Simulation.builder().seed(1).podEvents(false);
    for (int i = 1; i <= 10; i++) {
      b.object(Node.builder().name("node-" + i).capacity(ResourceList.builder().put("cpu", "64")
          .put("memory", "256Gi").put("pods", "500").build()).build());
    }
    CanaryStrategy c = CanaryStrategy.of(new CanaryStep.SetWeight(25), CanaryStep.Pause.of(Duration.ofSeconds(10)),
        new CanaryStep.SetWeight(50), CanaryStep.Pause.of(Duration.ofSeconds(10)))
        .withSurge(IntOrPercent.of(1), IntOrPercent.of(0));
    for (int i = 0; i < rollouts; i++) {
      b.object(Rollout.builder().namespace("ns-" + i).name("web").replicas(4).matchLabels(Map.of("app", "web"))
          .template(template(version)).canary(c).build());
    }
    sim = b.build();
    sim.runFor(Duration.ofSeconds(30));
  }

  @Benchmark
  public boolean rolloutAll() {
    version++;
    for (Rollout r : sim.store().list(Rollout.class, "").items()) {
      sim.store().update(r.withSpec(r.spec().withTemplate(template(version))));
    }
    return sim.runUntil(s -> s.store().list(Rollout.class, "").items().stream()
        .allMatch(r -> r.status().phase() == RolloutPhase.Healthy
            && r.status().stableRs().equals(r.status().currentPodHash())), Duration.ofMinutes(10));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    sim.close();
  }
}
