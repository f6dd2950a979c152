package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.simulation.ScenarioAutoscaler;
import io.fleetkit.autoscale.cluster.AutoscalerOptions;
import io.fleetkit.autoscale.cluster.Expanders;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * A scenario's {@code spec.clusterAutoscaler} ({@link AutoscalerChoice}): each option set replaces upstream's default
 * in the autoscaler the simulation runs, and changes what it does against the same manifests run with the defaults.
 */
final class ScenarioAutoscalerOptionsTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";

  private static String pool(String name, String cpu, String memory, String labels, double price) {
    return """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: %s}
        spec:
          template:
            labels: {%s}
            capacity: {cpu: "%s", memory: %s, pods: "110"}
          minSize: 0
          maxSize: 10
          startupDelay: 1m
          pricePerHour: %s
        ---
        """.formatted(name, labels, cpu, memory, price);
  }

  private static String deployment(int replicas, String cpu) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: web
                image: web:1
                resources:
                  requests: {cpu: "%s", memory: 1Gi}
        ---
        """.formatted(replicas, cpu);
  }

  /** {@code manifests} with a scenario of {@code duration}, the cluster autoscaler's block {@code block} (or none). */
  private static SimulationRun run(String manifests, String duration, String block) {
    String yaml = manifests + """
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: what-if}
        spec:
          duration: %s
          sampleInterval: 1m
          features: {%s}
        """.formatted(duration, OFF) + (block.isEmpty() ? "" : "  clusterAutoscaler: " + block + "\n");
    return ClusterSimulation.builder().objects(KubernetesYaml.parse(yaml, "test.yaml").objects()).build().run();
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  /** The nodes the autoscaler launched, from the ScaleUp events ("launching 2 node(s): a-1, b-1"). */
  private static List<String> launched(SimulationRun run) {
    List<String> out = new ArrayList<>();
    for (TimelineEvent e : events(run, "ScaleUp")) {
      out.addAll(List.of(e.message().substring(e.message().indexOf(": ") + 2).split(", ")));
    }
    return out;
  }

  /** How many launched nodes each pool got (node names are POOL-N). */
  private static Map<String, Integer> launchedPerPool(SimulationRun run) {
    Map<String, Integer> out = new TreeMap<>();
    for (String n : launched(run)) {
      out.merge(n.substring(0, n.lastIndexOf('-')), 1, Integer::sum);
    }
    return out;
  }

  @Test
  void coresTotalMax_capsTheNodesLaunchedUnderPendingLoad() {
    // six 3-CPU pods, one per 4-CPU node
    String manifests = pool("a", "4", "16Gi", "", 1) + deployment(6, "3");
    assertThat(launched(run(manifests, "20m", ""))).hasSize(6);
    SimulationRun capped = run(manifests, "20m", "{coresTotal: {max: 12}}");
    assertThat(launched(capped)).hasSize(3); // 3 x 4 cores = 12
    assertThat(capped.series("pending pods").orElseThrow().last()).isEqualTo(3.0);
    assertThat(launched(run(manifests, "20m", "{maxNodesTotal: 4}"))).hasSize(4);
  }

  /** A pool of 8-CPU nodes with 4 GPUs of {@code type}. */
  private static String gpuPool(String name, String type) {
    return """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: %s}
        spec:
          template:
            labels: {fleetkit.io/accelerator: %s}
            capacity: {cpu: "8", memory: 64Gi, pods: "110", nvidia.com/gpu: "4"}
          minSize: 0
          maxSize: 10
          startupDelay: 1m
          pricePerHour: 3
        ---
        """.formatted(name, type);
  }

  /** {@code replicas} training pods asking for 4 GPUs each (one per GPU node). */
  private static String training(int replicas) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: train, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: train}}
          template:
            metadata: {labels: {app: train}}
            spec:
              containers:
              - name: train
                image: train:1
                resources:
                  requests: {cpu: "1", memory: 1Gi}
                  limits: {nvidia.com/gpu: "4"}
        ---
        """.formatted(replicas);
  }

  @Test
  void gpuTotalMax_capsTheGpuNodesOfItsType() {
    String manifests = gpuPool("a100", "a100") + training(5);
    assertThat(launchedPerPool(run(manifests, "20m", ""))).isEqualTo(Map.of("a100", 5));
    // at most 12 a100 GPUs: 3 nodes of 4, the other two pods stay pending
    SimulationRun capped = run(manifests, "20m", "{gpuTotal: [{type: a100, max: 12}]}");
    assertThat(launchedPerPool(capped)).isEqualTo(Map.of("a100", 3));
    assertThat(capped.series("pending pods").orElseThrow().last()).isEqualTo(2.0);
    // a limit on another type leaves a100 alone, and then the h100 pool takes what a100 may not
    String twoTypes = manifests + gpuPool("h100", "h100");
    assertThat(launchedPerPool(run(twoTypes, "20m", "{gpuTotal: [{type: h100, max: 4}, {type: a100, max: 8}]}")))
        .isEqualTo(Map.of("a100", 2, "h100", 1));
  }

  @Test
  void gpuTotal_aTypeNoNodeOrPoolCarries_refusedBeforeTheRun() {
    String manifests = gpuPool("a100", "a100") + training(1);
    assertThatThrownBy(() -> run(manifests, "10m", "{gpuTotal: [{type: a100, max: 8}, {type: A100, max: 8}]}"))
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.clusterAutoscaler.gpuTotal[1].type \"A100\" is the fleetkit.io/accelerator label"
            + " of no node or NodePool template, so the limit would count no GPU (GPU types: [a100])")
        .message().doesNotContain("gpuTotal[0]");
    assertThat(AutoscalerChoice.of(ScenarioAutoscaler.builder().gpuTotal(List.of(
        new ScenarioAutoscaler.GpuTotal("a100", 4, 16))).build()).options().gpuTotal())
        .containsExactly(new AutoscalerOptions.GpuLimit("a100", 4, 16));
  }

  /** Pool a with two 4-CPU nodes, a-x and a-y, and a Deployment of two 1-CPU pods: one on each, a quarter used. */
  private static String quarterUsedPair() {
    String node = """
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          labels: {fleetkit.io/node-pool: a}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        ---
        """;
    return pool("a", "4", "16Gi", "", 1) + node.formatted("a-x") + node.formatted("a-y") + deployment(2, "1");
  }

  @Test
  void scaleDownUtilizationThresholdZero_keepsTheNodeTheDefaultRemoves() {
    // two pool nodes with one 1-CPU pod each (25 % used): both pods fit on one node, so the default threshold (0.5)
    // removes the other node after 10 minutes unneeded; at 0 no node with a pod is underutilized
    String manifests = quarterUsedPair();
    SimulationRun byDefault = run(manifests, "30m", "");
    assertThat(events(byDefault, "ScaleDown")).singleElement()
        .satisfies(e -> assertThat(e.at()).isBetween(Duration.ofMinutes(10), Duration.ofMinutes(11)));
    assertThat(events(run(manifests, "30m", "{scaleDownUtilizationThreshold: 0}"), "ScaleDown")).isEmpty();
    // a longer unneeded time postpones the removal past the end
    assertThat(events(run(manifests, "30m", "{scaleDownUnneededTime: 40m}"), "ScaleDown")).isEmpty();
  }

  @Test
  void nodeDeleteDelayAfterTaint_theDrainStartsThatLongAfterTheLoopThatTaintedIt() {
    // as above: the default removes one of two quarter-used nodes after 10 minutes unneeded. The loops run every 10 s;
    // the node's pod is evicted by the autoscaler's deletion step the delay after the loop that tainted the node,
    // between loops, and the node goes once the pod is gone (the wait for evicted pods is carried on by the loops)
    String manifests = quarterUsedPair();
    SimulationRun zero = run(manifests, "30m", "{nodeDeleteDelayAfterTaint: 0s}");
    Duration tainted = events(zero, "PodEvicted").get(0).at();
    assertThat(tainted.toMillis() % ClusterSimulation.AUTOSCALER_PERIOD.toMillis()).as("in the tainting loop")
        .isZero();
    for (String delay : List.of("", "7s", "25s")) {
      SimulationRun r = run(manifests, "30m", delay.isEmpty() ? "" : "{nodeDeleteDelayAfterTaint: " + delay + "}");
      Duration want = tainted.plus(delay.isEmpty() ? Duration.ofSeconds(5) : Duration.parse("PT" + delay));
      assertThat(events(r, "PodEvicted")).as(delay).singleElement()
          .satisfies(e -> assertThat(e.at()).isEqualTo(want));
      assertThat(events(r, "ScaleDown")).as(delay).singleElement()
          .satisfies(e -> assertThat(e.at()).isGreaterThanOrEqualTo(want));
      assertThat(events(r, "ScaleDownFailed")).as(delay).isEmpty();
    }
  }

  @Test
  void balanceSimilarNodeGroups_spreadsAScaleUpOverTwoSimilarPools() {
    // identical pools in two zones (the zone label is ignored when comparing), four 3-CPU pods
    String manifests = pool("a", "4", "16Gi", "topology.kubernetes.io/zone: zone-a, example.com/rack: r1", 1)
        + pool("b", "4", "16Gi", "topology.kubernetes.io/zone: zone-b, example.com/rack: r2", 1) + deployment(4, "3");
    assertThat(launchedPerPool(run(manifests, "10m", ""))).hasSize(1).containsValue(4);
    // the rack label differs, so the pools are not similar until it is ignored
    assertThat(launchedPerPool(run(manifests, "10m", "{balanceSimilarNodeGroups: true}"))).hasSize(1)
        .containsValue(4);
    assertThat(launchedPerPool(run(manifests, "10m",
        "{balanceSimilarNodeGroups: true, balancingIgnoreLabels: [example.com/rack]}")))
        .isEqualTo(Map.of("a", 2, "b", 2));
  }

  @Test
  void expander_leastNodes_choosesTheBigPoolLeastWasteDoesNot() {
    // four 3-CPU 1Gi pods: four small nodes waste 0.25 cpu + 0.75 memory, one big node 0.25 + 0.9375
    String manifests = pool("small", "4", "4Gi", "", 1) + pool("big", "16", "64Gi", "", 1) + deployment(4, "3");
    assertThat(launchedPerPool(run(manifests, "10m", ""))).isEqualTo(Map.of("small", 4));
    assertThat(launchedPerPool(run(manifests, "10m", "{expander: least-nodes}")))
        .isEqualTo(Map.of("big", 1));
  }

  @Test
  void everyExpanderAScenarioMayName_isOneTheAutoscalerKnows() {
    for (String name : ScenarioAutoscaler.EXPANDERS) {
      assertThat(Expanders.named(name)).as(name).isNotNull();
    }
    assertThat(AutoscalerChoice.of(ScenarioAutoscaler.builder().expander("price, random").build()).expanderNames())
        .isEqualTo("price,random");
  }

  @Test
  void options_eachSetOneReplacesTheDefault_theOthersStay() {
    assertThat(AutoscalerChoice.of(null).options()).isEqualTo(AutoscalerOptions.defaults());
    assertThat(AutoscalerChoice.of(ScenarioAutoscaler.DEFAULTS).options()).isEqualTo(AutoscalerOptions.defaults());
    ScenarioAutoscaler a = ScenarioAutoscaler.builder().scaleDownUtilizationThreshold(0.2)
        .scaleDownGpuUtilizationThreshold(0.1).scaleDownUnneededTime(Duration.ofMinutes(1))
        .scaleDownDelayAfterAdd(Duration.ofMinutes(2)).scaleDownDelayAfterDelete(Duration.ofMinutes(3))
        .scaleDownDelayAfterFailure(Duration.ofMinutes(4)).maxNodeProvisionTime(Duration.ofMinutes(5))
        .balanceSimilarNodeGroups(true).balancingIgnoreLabels(List.of("example.com/rack")).coresTotal(2L, 64L)
        .memoryTotal(Quantity.parse("1Gi"), Quantity.parse("256Gi")).maxNodesTotal(9)
        .nodeDeleteDelayAfterTaint(Duration.ofSeconds(7)).cordonNodeBeforeTerminating(false).build();
    AutoscalerOptions o = AutoscalerChoice.of(a).options();
    assertThat(o).isEqualTo(AutoscalerOptions.defaults().withScaleDownUtilizationThreshold(0.2)
        .withScaleDownGpuUtilizationThreshold(0.1).withScaleDownUnneededTime(Duration.ofMinutes(1))
        .withScaleDownDelayAfterAdd(Duration.ofMinutes(2)).withScaleDownDelayAfterDelete(Duration.ofMinutes(3))
        .withScaleDownDelayAfterFailure(Duration.ofMinutes(4)).withMaxNodeProvisionTime(Duration.ofMinutes(5))
        .withBalanceSimilarNodeGroups(true).withBalancingIgnoreLabels(List.of("example.com/rack"))
        .withCoresTotal(2, 64).withMemoryTotal(1L << 30, 256L << 30).withMaxNodesTotal(9)
        .withNodeDeleteDelayAfterTaint(Duration.ofSeconds(7)).withCordonNodeBeforeTerminating(false));
    // one side of a total keeps the other side's default
    AutoscalerOptions maxOnly = AutoscalerChoice.of(ScenarioAutoscaler.builder().coresTotal(null, 8L)
        .memoryTotal(Quantity.parse("1Gi"), null).build()).options();
    assertThat(maxOnly.minCoresTotal()).isZero();
    assertThat(maxOnly.maxCoresTotal()).isEqualTo(8);
    assertThat(maxOnly.minMemoryTotal()).isEqualTo(1L << 30);
    assertThat(maxOnly.maxMemoryTotal()).isEqualTo(AutoscalerOptions.DEFAULT_MAX_MEMORY_TOTAL);
  }

  @Test
  void aMinimumAboveTheDefaultMaximum_refusedBeforeTheRunNamingTheBlock() {
    String manifests = pool("a", "4", "16Gi", "", 1);
    assertThatThrownBy(() -> run(manifests, "10m", "{coresTotal: {min: 400000}}"))
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("Scenario what-if: spec.clusterAutoscaler ")
        .hasMessageContaining("coresTotal min 400000 must not exceed max 320000");
  }
}
