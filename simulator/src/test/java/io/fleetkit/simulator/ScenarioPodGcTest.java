package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The scenario's {@code podGarbageCollector} switch: a pod bound to a node that does not exist is collected or kept. */
final class ScenarioPodGcTest {
  private static final String OBJECTS = """
      apiVersion: v1
      kind: Node
      metadata: {name: n1}
      status:
        capacity: {cpu: "8", memory: 32Gi, pods: "110"}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: orphan, namespace: default}
      spec:
        nodeName: gone
        containers: [{name: c, image: c:1}]
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: t}
      spec:
        duration: 3m
        sampleInterval: 30s
        features: {horizontalPodAutoscaler: false, clusterAutoscaler: false, podGarbageCollector: %s}
      """;

  private static List<TimelineEvent> collected(boolean gc) {
    SimulationRun run = ClusterSimulation.builder()
        .objects(KubernetesYaml.parse(OBJECTS.formatted(gc), "test.yaml").objects()).build().run();
    return run.timeline().stream().filter(e -> e.kind().equals("PodEvicted")).toList();
  }

  @Test
  void on_theOrphanIsCollectedAfterTheQuarantine() {
    assertThat(collected(true)).singleElement().satisfies(e -> {
      assertThat(e.message()).isEqualTo("from gone (DeletionByPodGC)");
      // passes every 20 s from the start: the first quarantines the missing node for 40 s, the one at 40 s collects
      assertThat(e.at()).isEqualTo(Duration.ofSeconds(40));
    });
  }

  @Test
  void off_theOrphanStays() {
    assertThat(collected(false)).isEmpty();
  }
}
