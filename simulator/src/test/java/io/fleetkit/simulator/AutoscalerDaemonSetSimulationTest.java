package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cluster autoscaler in a simulation with a DaemonSet that requests CPU: the DaemonSet is among the objects, so the
 * DaemonSet controller runs and the autoscaler lists it from the store with the pools and pods. A new node runs the
 * daemon pod too, so the pending pod needs a node with room for both.
 */
final class AutoscalerDaemonSetSimulationTest {
  private static final long GI = 1024L * 1024 * 1024;

  private static NodePool pool(String name, long milliCpu, double price) {
    return NodePool.builder().name(name).capacity(ResourceList.builder().put("cpu", milliCpu + "m")
        .put("memory", "8Gi").put("pods", "110").build()).minSize(0).maxSize(5).pricePerHour(price).build();
  }

  private static List<ApiObject<?>> objects(boolean withDaemonSet) {
    Deployment web = Deployment.builder().namespace("default").name("web").replicas(1).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "nginx:1", ResourceList.ofCpuMemory(1800, GI)).build()).build();
    DaemonSet logging = DaemonSet.builder().namespace("default").name("logging")
        .matchLabels(Map.of("app", "logging"))
        .podSpec(PodSpec.builder().container("agent", "fluent-bit:3", ResourceList.ofCpuMemory(500, GI / 4)).build())
        .build();
    // small is cheaper and wastes less for the 1800m pod alone; with the 500m daemon it does not fit
    List<ApiObject<?>> os = List.of(pool("small", 2000, 1.0), pool("large", 4000, 2.0), web);
    return withDaemonSet ? java.util.stream.Stream.concat(os.stream(), java.util.stream.Stream.of(logging)).toList()
        : os;
  }

  private static Scenario scenario() {
    return new Scenario(ObjectMeta.builder().name("ds-overhead").build(), new ScenarioSpec(Duration.ofMinutes(10), 1,
        Duration.ofMinutes(1), List.of(), List.of(), new ScenarioFeatures(false, true, false)));
  }

  private static SimulationRun run(boolean withDaemonSet) {
    return ClusterSimulation.builder().objects(objects(withDaemonSet)).scenario(scenario()).build().run();
  }

  /** The pods' last PodScheduled target by pod, from the timeline ("to <node>"). */
  private static Map<String, String> scheduledTo(SimulationRun run) {
    Map<String, String> out = new java.util.TreeMap<>();
    run.timeline().stream().filter(e -> e.kind().equals("PodScheduled"))
        .forEach(e -> out.put(e.object(), e.message().substring("to ".length())));
    return out;
  }

  /** The pods Ready (running, their containers started by the node's kubelet) at the end, from the timeline. */
  private static List<String> running(SimulationRun run) {
    Map<String, String> last = new java.util.TreeMap<>();
    run.timeline().stream().filter(e -> e.kind().equals("PodReady") || e.kind().equals("PodNotReady"))
        .forEach(e -> last.put(e.object(), e.kind()));
    return last.entrySet().stream().filter(e -> e.getValue().equals("PodReady")).map(Map.Entry::getKey).toList();
  }

  private static List<String> scaleUps(SimulationRun run) {
    return run.timeline().stream().filter(e -> e.kind().equals("ScaleUp")).map(TimelineEvent::object).toList();
  }

  @Test
  void withoutDaemonSet_smallPoolChosen_podRuns() {
    SimulationRun run = run(false);
    assertThat(scaleUps(run)).containsExactly("NodePool/small");
    Map<String, String> to = scheduledTo(run);
    assertThat(to).hasSize(1);
    assertThat(to.values()).allMatch(n -> n.startsWith("small-"));
    assertThat(running(run)).containsExactlyElementsOf(to.keySet());
    assertThat(run.series("pending pods").orElseThrow().last()).isZero();
  }

  @Test
  void daemonSetRequestingCpu_largePoolChosen_pendingPodAndDaemonPodRunThere() {
    SimulationRun run = run(true);
    assertThat(scaleUps(run)).as("one scale-up, of the pool with room for the pod and the daemon")
        .containsExactly("NodePool/large");
    Map<String, String> to = scheduledTo(run);
    assertThat(to.keySet()).as("the web pod and the daemon pod").hasSize(2)
        .anyMatch(k -> k.contains("web")).anyMatch(k -> k.contains("logging"));
    assertThat(new java.util.HashSet<>(to.values())).as("both on the one large node").hasSize(1)
        .allMatch(n -> n.startsWith("large-"));
    assertThat(running(run)).containsExactlyElementsOf(to.keySet());
    assertThat(run.series("pending pods").orElseThrow().last()).isZero();
  }
}
