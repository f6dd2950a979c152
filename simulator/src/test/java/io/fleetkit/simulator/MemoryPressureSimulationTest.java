package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A scenario load's memory ({@code memoryPerRequest}) in the simulated kubelets: containers above their memory limit
 * are OOM-killed and restarted, and a node whose pods leave less than 100Mi of its memory evicts them one by one,
 * reports MemoryPressure (tainted NoSchedule meanwhile) and clears it 5 minutes after the last time the threshold was
 * met.
 */
final class MemoryPressureSimulationTest {
  private static final long MI = 1L << 20;
  private static final ScenarioFeatures NOTHING_ELSE = ScenarioFeatures.builder().horizontalPodAutoscaler(false)
      .clusterAutoscaler(false).storage(false).verticalPodAutoscaler(false).queueAdmission(false).queueScaling(false)
      .networking(false).build();

  private static Node node(String name, String memory) {
    ResourceList capacity = ResourceList.builder().put("cpu", "8").put("memory", memory).put("pods", "110").build();
    return Node.builder().name(name).capacity(capacity).allocatable(capacity).build();
  }

  private static Deployment api(int replicas, String request, String limit) {
    ResourceList requests = ResourceList.builder().put("cpu", "100m").put("memory", request).build();
    ResourceList limits = limit.isEmpty() ? ResourceList.EMPTY : ResourceList.builder().put("memory", limit).build();
    return Deployment.builder().namespace("shop").name("api").replicas(replicas).matchLabels(Map.of("app", "api"))
        .podSpec(PodSpec.builder().container(Container.of("app", "img:1", new ResourceRequirements(requests, limits,
            List.of()))).build()).build();
  }

  private static SimulationRun run(List<ApiObject<?>> objects, Duration length, WorkloadLoad load) {
    Scenario s = new Scenario(ObjectMeta.builder().name("memory").build(), new ScenarioSpec(length, 3,
        Duration.ofMinutes(1), List.of(load), List.of(), NOTHING_ELSE, List.of(), List.of(), List.of()));
    return ClusterSimulation.builder().objects(objects).scenario(s).podEvents(true).build().run();
  }

  private static List<TimelineEvent> kind(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  void oom_usageAboveTheLimit_containersOomKilledAndRestarted() {
    List<ApiObject<?>> objects = new ArrayList<>(List.of(node("n1", "16Gi"), api(2, "64Mi", "128Mi")));
    // 200 requests/s of 1Mi over 2 pods: 100Mi each, below the 128Mi limit
    SimulationRun below = run(objects, Duration.ofMinutes(5),
        new WorkloadLoad("Deployment", "shop", "api", LoadPattern.constant(200), 0, MI));
    assertThat(kind(below, "ContainerRestarted")).isEmpty();
    // 300 requests/s: 150Mi each
    SimulationRun above = run(objects, Duration.ofMinutes(5),
        new WorkloadLoad("Deployment", "shop", "api", LoadPattern.constant(300), 0, MI));
    List<TimelineEvent> restarts = kind(above, "ContainerRestarted");
    assertThat(restarts).isNotEmpty();
    assertThat(restarts).allSatisfy(e -> assertThat(e.message()).endsWith("(OOMKilled)"));
    assertThat(restarts.get(0).at()).isEqualTo(Duration.ofSeconds(10)); // the first housekeeping
    assertThat(kind(above, "CrashLoopBackOff")).isNotEmpty();
    assertThat(kind(above, "Evicted")).as("16Gi: no node pressure").isEmpty();
  }

  @Test
  void eviction_nodeLowOnMemory_evictsReportsPressureAndKeepsReplacementsOffUntilItClears() {
    List<ApiObject<?>> objects = new ArrayList<>(List.of(node("n1", "1Gi"), api(4, "64Mi", "")));
    // 1000 requests/s of 1Mi over 4 pods: 1000Mi of the node's 1024Mi, 24Mi available
    SimulationRun run = run(objects, Duration.ofMinutes(10),
        new WorkloadLoad("Deployment", "shop", "api", LoadPattern.constant(1000), 0, MI));
    List<TimelineEvent> evicted = kind(run, "Evicted");
    assertThat(evicted).isNotEmpty();
    TimelineEvent first = evicted.get(0);
    assertThat(first.at()).isEqualTo(Duration.ofSeconds(10));
    assertThat(first.message()).startsWith("The node was low on resource: memory. Threshold quantity: 100Mi, "
        + "available: 24Mi. Container app was using 250Mi, request is 64Mi, has larger consumption of memory.");
    assertThat(kind(run, "PodFailed")).anySatisfy(e -> assertThat(e.message()).startsWith("Evicted"));
    List<TimelineEvent> pressure = kind(run, "NodeMemoryPressure");
    assertThat(pressure).isNotEmpty();
    assertThat(pressure.get(0).at()).isEqualTo(Duration.ofSeconds(10));
    assertThat(pressure.get(0).message()).isEqualTo("MemoryPressure=True (KubeletHasInsufficientMemory)");
    // the replacements wait while the node is tainted memory-pressure:NoSchedule; it clears 5 minutes after the last
    // eviction pass that found the threshold met
    TimelineEvent over = kind(run, "NodeMemoryPressureOver").get(0);
    Duration lastMet = evicted.stream().filter(e -> e.at().compareTo(over.at()) < 0).map(TimelineEvent::at)
        .max(Duration::compareTo).orElseThrow();
    assertThat(over.at()).isEqualTo(lastMet.plusMinutes(5));
    assertThat(kind(run, "PodScheduled")).filteredOn(e -> e.at().compareTo(first.at()) > 0)
        .allSatisfy(e -> assertThat(e.at()).isGreaterThanOrEqualTo(over.at()));
  }
}
