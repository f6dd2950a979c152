package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Kueue's Topology manifest in a simulation: a ResourceFlavor naming it in {@code topologyName} places its Jobs by
 * topology-aware scheduling, so a Job that requires one {@code example.com/block} gets all its pods in one block.
 */
final class KueueTopologySimulationTest {
  private static String node(String name, String block) {
    return """
        ---
        apiVersion: v1
        kind: Node
        metadata: {name: %s, labels: {kubernetes.io/hostname: %s, example.com/block: %s, example.com/pool: tas}}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        """.formatted(name, name, block);
  }

  private static final String MANIFESTS = """
      apiVersion: v1
      kind: Namespace
      metadata: {name: team}
      """ + node("n1", "b1") + node("n2", "b1") + node("n3", "b2") + node("n4", "b2") + """
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: Topology
      metadata: {name: dc}
      spec:
        levels:
        - nodeLabel: example.com/block
        - nodeLabel: kubernetes.io/hostname
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: tas}
      spec: {topologyName: dc, nodeLabels: {example.com/pool: tas}}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ClusterQueue
      metadata: {name: cq}
      spec:
        namespaceSelector: {}
        resourceGroups:
        - coveredResources: [cpu]
          flavors:
          - name: tas
            resources: [{name: cpu, nominalQuota: "16"}]
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: LocalQueue
      metadata: {name: main, namespace: team}
      spec: {clusterQueue: cq}
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: train
        namespace: team
        labels: {kueue.x-k8s.io/queue-name: main}
      spec:
        suspend: true
        parallelism: 3
        completions: 3
        template:
          metadata:
            annotations:
              simulate.fleetkit.io/exit-after-seconds: "600"
              kueue.x-k8s.io/podset-required-topology: example.com/block
          spec:
            restartPolicy: Never
            containers:
            - name: main
              image: job:1
              resources: {requests: {cpu: "2"}}
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: tas}
      spec:
        duration: 5m
        sampleInterval: 1m
        features: {horizontalPodAutoscaler: false, verticalPodAutoscaler: false, storage: false,
          clusterAutoscaler: false}
      """;

  @Test
  void run_flavorWithAManifestTopology_placesAJobsPodsInOneRequiredDomain() {
    List<ApiObject<?>> objects = KubernetesYaml.parse(MANIFESTS, "tas.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    SimulationRun run = ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s)
        .podEvents(true).build().run();

    Map<String, String> blocks = Map.of("n1", "b1", "n2", "b1", "n3", "b2", "n4", "b2");
    List<String> nodes = run.timeline().stream().filter(e -> e.kind().equals("PodScheduled")
        && e.object().startsWith("Pod/team/train-")).map(e -> e.message().substring("to ".length())).toList();
    assertThat(nodes).hasSize(3);
    Set<String> used = nodes.stream().map(blocks::get).collect(Collectors.toSet());
    assertThat(used).as("blocks of %s", nodes).hasSize(1);
  }
}
