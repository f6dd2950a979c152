package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.autoscale.cluster.ClusterAutoscaler;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A node that fails for good in a scenario with the cluster autoscaler: the node lifecycle controller marks it
 * unready and taint eviction moves its pods away; the autoscaler then removes it as an unready node,
 * {@code --scale-down-unready-time} (20 min) after it became unneeded.
 */
final class ScenarioUnreadyNodeTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";

  private static String node(String name, boolean keep) {
    return """
        apiVersion: v1
        kind: Node
        metadata:
          name: %s
          labels: {fleetkit.io/node-pool: web}
          annotations: {cluster-autoscaler.kubernetes.io/scale-down-disabled: "%s"}
        status:
          capacity: {cpu: "4", memory: 16Gi, pods: "110"}
        ---
        """.formatted(name, keep);
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  private static String scenario(String cpu) {
    return """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: web}
        spec:
          template:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 4
          pricePerHour: 1
        ---
        """ + node("web-a", true) + node("web-b", true) + node("web-c", false) + """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: shop, namespace: default}
        spec:
          replicas: 3
          selector: {matchLabels: {app: shop}}
          template:
            metadata: {labels: {app: shop}}
            spec:
              containers:
              - name: web
                image: shop:1
                resources:
                  requests: {cpu: "%s"}
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: unready}
        spec:
          duration: 40m
          sampleInterval: 1m
          features: {%s}
          faults:
          - {at: 1m, nodeFailure: web-c}
        """.formatted(cpu, OFF);
  }

  private static SimulationRun run(String cpu) {
    List<ApiObject<?>> objects = KubernetesYaml.parse(scenario(cpu), "test.yaml").objects();
    return ClusterSimulation.builder().objects(objects).build().run();
  }

  private static double at(SimulationRun run, String series, Duration t) {
    TimeSeries s = run.series(series).orElseThrow();
    return s.values().get(run.sampleTimes().indexOf(t));
  }

  @Test
  void failedNode_removedAboutTwentyMinutesAfterItFailed_notTenAsAReadyNode_itsPodRunsElsewhere() {
    // web-c (one 1-cpu pod on 4 cpus) is unneeded from the first loop (10 s): its pod fits on web-a or web-b, which
    // are annotated against scale-down. Ready, it would go at 10m10s; it fails at 1m and is unready (Ready=Unknown)
    // from 1m45s, so it is tainted scaleDownUnreadyTime (20 min) after it became unneeded and deleted
    // nodeDeleteDelayAfterTaint (5 s) later
    SimulationRun run = run("1");
    assertThat(events(run, "NodeFailed")).singleElement()
        .satisfies(e -> assertThat(e.at()).isEqualTo(Duration.ofMinutes(1)));
    assertThat(events(run, "NodeUnreachable")).singleElement()
        .satisfies(e -> assertThat(e.object()).isEqualTo("Node/web-c"));
    TimelineEvent deleted = events(run, "NodeDeleted").get(0);
    assertThat(deleted.object()).isEqualTo("Node/web-c");
    assertThat(deleted.at()).isEqualTo(Duration.ofMinutes(20).plusSeconds(10 + 5));
    assertThat(events(run, "ScaleDown")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(deleted.at());
      assertThat(e.message()).isEqualTo("removed web-c");
    });
    // its pod, evicted by the taint manager, runs elsewhere; no node is launched for it
    TimelineEvent evicted = events(run, "PodEvicted").get(0);
    assertThat(evicted.message()).contains("from web-c");
    assertThat(events(run, "PodReady")).filteredOn(e -> e.at().compareTo(evicted.at()) >= 0)
        .singleElement().satisfies(e -> assertThat(e.message()).doesNotContain("web-c"));
    assertThat(events(run, "ScaleUp")).isEmpty();
    assertThat(at(run, "running pods", Duration.ofMinutes(30))).isEqualTo(3);
    assertThat(at(run, "pending pods", Duration.ofMinutes(30))).isZero();
  }

  @Test
  void failedFullNode_unneededOnlyOnceItsPodsLeft_thenRemovedTheUnreadyTimeLater() {
    // 3-cpu pods: web-c's pod has nowhere to go (NoPlaceToMovePods) until the taint manager evicts it (5 min of
    // default toleration after the node went unreachable); its replacement gets a new node (web-1). The evicted pod
    // stays Terminating on web-c (no kubelet ends it), and counts for web-c until it is long-terminating
    // (drain.IsPodLongTerminating: deletionTimestamp, already 30 s after the eviction, plus its 30 s grace period
    // plus 30 s, so at 8m15s); web-c, empty and unready from the next loop (8m20s), is tainted 20 min later and
    // deleted nodeDeleteDelayAfterTaint (5 s) after that
    SimulationRun run = run("3");
    TimelineEvent evicted = events(run, "PodEvicted").get(0);
    assertThat(evicted.at()).isEqualTo(Duration.ofMinutes(6).plusSeconds(45));
    TimelineEvent up = events(run, "ScaleUp").get(0);
    assertThat(up.at()).isEqualTo(Duration.ofMinutes(6).plusSeconds(50));
    assertThat(up.message()).contains("web-1");
    TimelineEvent deleted = events(run, "NodeDeleted").get(0);
    assertThat(deleted.object()).isEqualTo("Node/web-c");
    assertThat(deleted.at()).isEqualTo(Duration.ofMinutes(8).plusSeconds(20 + 5).plus(Duration.ofMinutes(20)));
    assertThat(events(run, "NodeDeleted")).hasSize(1);
    assertThat(at(run, "running pods", Duration.ofMinutes(30))).isEqualTo(3);
  }

  /** Five full pool nodes, {@code failed} of them failing at 16m, and a 3-cpu pod arriving at 20m. */
  private static SimulationRun haltScenario(List<String> failed) {
    StringBuilder yaml = new StringBuilder("""
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: web}
        spec:
          template:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 10
          pricePerHour: 1
        ---
        """);
    for (String n : List.of("web-a", "web-b", "web-c", "web-d", "web-e")) {
      yaml.append(node(n, false));
    }
    yaml.append("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: shop, namespace: default}
        spec:
          replicas: 5
          selector: {matchLabels: {app: shop}}
          template:
            metadata: {labels: {app: shop}}
            spec:
              containers:
              - name: web
                image: shop:1
                resources:
                  requests: {cpu: "3"}
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: halt}
        spec:
          duration: 35m
          sampleInterval: 1m
          features: {%s}
          faults:
        """.formatted(OFF));
    for (String n : failed) {
      yaml.append("  - {at: 16m, nodeFailure: ").append(n).append("}\n");
    }
    // at 20m a new 3-cpu pod arrives: it fits no node, and would get a new one but for the halt
    List<ApiObject<?>> late = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: late, namespace: default}
        spec:
          containers:
          - name: job
            image: job:1
            resources:
              requests: {cpu: "3"}
        """, "late.yaml").objects();
    return ClusterSimulation.builder().objects(KubernetesYaml.parse(yaml.toString(), "test.yaml").objects())
        .apply(Duration.ofMinutes(20), late, "late.yaml").build().run();
  }

  @Test
  void fourOfFiveNodesFail_theAutoscalerHalts_noScaleUpForANewPod() {
    SimulationRun run = haltScenario(List.of("web-b", "web-c", "web-d", "web-e"));
    // unreachable from 16m45s: 4 of 5 nodes unready (more than 3 and more than 45%), recorded once
    TimelineEvent halt = events(run, ClusterAutoscaler.CLUSTER_UNHEALTHY).get(0);
    assertThat(events(run, ClusterAutoscaler.CLUSTER_UNHEALTHY)).hasSize(1);
    assertThat(halt.at()).isEqualTo(Duration.ofMinutes(16).plusSeconds(50));
    assertThat(halt.message()).contains("4 of 5 nodes unready");
    // while halted the late pod stays pending (no scale-up) and no node is removed; the failed nodes' pods are not
    // evicted either (the node lifecycle controller stops evicting in a zone this disrupted)
    assertThat(events(run, "ScaleUp")).isEmpty();
    assertThat(events(run, "NodeDeleted")).isEmpty();
    assertThat(at(run, "pending pods", Duration.ofMinutes(19))).isZero();
    assertThat(at(run, "pending pods", Duration.ofMinutes(30))).isEqualTo(1);
  }

  @Test
  void threeOfFiveNodesFail_noHalt_theNewPodGetsANode() {
    // 3 unready nodes are within --ok-total-unready-count (3): the autoscaler goes on
    SimulationRun run = haltScenario(List.of("web-c", "web-d", "web-e"));
    assertThat(events(run, ClusterAutoscaler.CLUSTER_UNHEALTHY)).isEmpty();
    // (here the failed nodes' pods are evicted too, and their replacements get nodes as well)
    assertThat(events(run, "ScaleUp")).anySatisfy(e ->
        assertThat(e.at()).isBetween(Duration.ofMinutes(20), Duration.ofMinutes(21)));
    assertThat(at(run, "pending pods", Duration.ofMinutes(30))).isZero();
  }
}
