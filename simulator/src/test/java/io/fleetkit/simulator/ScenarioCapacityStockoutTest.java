package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A capacity stockout ({@link CapacityStockouts}): the cloud refuses the pool's new machines while it lasts. The
 * cluster autoscaler backs the pool off and scales up the other pool; the provisioner skips the offering and launches
 * the other type; after the recovery the first pool is used again.
 */
final class ScenarioCapacityStockoutTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";
  private static final long GI = 1024L * 1024 * 1024;

  /**
   * Pools {@code a} (zone-a, 4 CPU 16Gi, $1/h: least waste and cheapest for a 3-CPU pod) and {@code b} (zone-b, 4 CPU
   * 64Gi, $2/h), a 3-CPU pod at the start and another at 45 minutes, the stockout {@code fault}.
   */
  private static List<ApiObject<?>> objects(String fault, String features) {
    String yaml = """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: a}
        spec:
          template:
            labels: {topology.kubernetes.io/zone: zone-a}
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 3
          startupDelay: 1m
          pricePerHour: 1
        ---
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: b}
        spec:
          template:
            labels: {topology.kubernetes.io/zone: zone-b}
            capacity: {cpu: "4", memory: 64Gi, pods: "110"}
          minSize: 0
          maxSize: 3
          startupDelay: 1m
          pricePerHour: 2
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: first, namespace: default}
        spec:
          containers:
          - name: c
            image: app:1
            resources:
              requests: {cpu: "3", memory: 1Gi}
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: stockout}
        spec:
          duration: 1h
          sampleInterval: 1m
          features: {%s}
          faults:
          - %s
        """.formatted(OFF + features, fault);
    return KubernetesYaml.parse(yaml, "test.yaml").objects();
  }

  private static SimulationRun run(String fault, String features) {
    Pod second = Pod.builder().name("second").namespace("default")
        .container("c", "app:1", ResourceList.ofCpuMemory(3000, GI)).build();
    return ClusterSimulation.builder().objects(objects(fault, features))
        .apply(Duration.ofMinutes(45), List.of(second), "second.yaml").build().run();
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  void clusterAutoscaler_stockedOutPoolBackedOff_otherPoolScaledUp_firstUsedAgainAfterRecovery() {
    SimulationRun run = run("{at: 0s, capacityStockout: a, zone: zone-a, recoverAfter: 30m}", "");
    assertThat(events(run, "CapacityStockout")).singleElement().satisfies(e -> {
      assertThat(e.at()).isZero();
      assertThat(e.object()).isEqualTo("NodePool/a/zone-a");
    });
    assertThat(events(run, "NodeCreateFailed")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofSeconds(10));
      assertThat(e.object()).isEqualTo("Node/a-1");
      assertThat(e.message()).contains(CapacityStockouts.ERROR_CODE).contains("zone zone-a");
    });
    assertThat(events(run, "ScaleUpFailed")).singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo("NodePool/a");
      assertThat(e.message()).isEqualTo("Failed adding 1 nodes to group a due to "
          + "OutOfResource.RESOURCE_POOL_EXHAUSTED; source errors: no machine of NodePool a available in zone zone-a");
    });
    List<TimelineEvent> scaleUps = events(run, "ScaleUp");
    assertThat(scaleUps).extracting(TimelineEvent::object).containsExactly("NodePool/b", "NodePool/a");
    assertThat(scaleUps.get(0).at()).isEqualTo(Duration.ofSeconds(20)); // the next loop, a backed off
    assertThat(scaleUps.get(1).at()).isBetween(Duration.ofMinutes(45), Duration.ofMinutes(45).plusSeconds(10));
    assertThat(events(run, "CapacityRestored")).singleElement()
        .satisfies(e -> assertThat(e.at()).isEqualTo(Duration.ofMinutes(30)));
    // both marked on the time axis, and the summary names the fault with its span
    assertThat(run.markers()).extracting(TimelineEvent::kind).contains("CapacityStockout", "CapacityRestored");
    assertThat(ReportSummary.faultLines(run.markers()))
        .containsExactly("NodePool a out of capacity in zone zone-a from 0:00 to 0:30");
  }

  @Test
  void provisioner_stockedOutOfferingSkipped_otherTypeLaunched_firstUsedAgainAfterRecovery() {
    SimulationRun run = run("{at: 0s, capacityStockout: a, recoverAfter: 30m}",
        ", clusterAutoscaler: false, provisioner: true");
    assertThat(events(run, "NodeCreateFailed")).singleElement()
        .satisfies(e -> assertThat(e.object()).isEqualTo("Node/fleetkit-1"));
    assertThat(events(run, "LaunchFailed")).singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo("NodePool/a");
      assertThat(e.message()).isEqualTo("provisioner's node fleetkit-1 not launched: RESOURCE_POOL_EXHAUSTED; "
          + "offering a in zone zone-a skipped for 3m");
    });
    List<TimelineEvent> scaleUps = events(run, "ScaleUp");
    assertThat(scaleUps).extracting(TimelineEvent::object).containsExactly("NodePool/b", "NodePool/a");
    assertThat(scaleUps.get(0).at()).isLessThan(Duration.ofMinutes(1));
    assertThat(scaleUps.get(1).at()).isGreaterThanOrEqualTo(Duration.ofMinutes(45));
    assertThat(ReportSummary.faultLines(run.markers())).containsExactly("NodePool a out of capacity from 0:00 to 0:30");
  }

  @Test
  void unknownPoolOrOtherZone_rejectedNamingTheField() {
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(objects("{at: 0s, capacityStockout: c}", ""))
        .build()).isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.faults[0].capacityStockout \"c\" names no NodePool among the manifests (pools:"
            + " [a, b])");
    assertThatThrownBy(() -> ClusterSimulation.builder()
        .objects(objects("{at: 0s, capacityStockout: a, zone: zone-b}", "")).build())
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("would never refuse a machine: NodePool a's machines are in zone zone-a")
        .hasMessageContaining("give zone zone-a or none");
  }
}
