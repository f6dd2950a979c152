package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A machine launched in a zone that is down does not start while the zone is down ({@link ZoneOutages}): it starts
 * over when the zone is back, or the cluster autoscaler gives up on it after {@code maxNodeProvisionTime} (15 min),
 * deletes it, backs its pool off and scales up another pool.
 */
final class ScenarioZoneOutageStartTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";

  /** Pool {@code b} in zone-b (the only one unless {@code withPoolA}), one full node in zone-a, a pod for a new node. */
  private static SimulationRun run(String outage, boolean withPoolA) {
    return run(outage, withPoolA, "");
  }

  private static SimulationRun run(String outage, boolean withPoolA, String moreFeatures) {
    String yaml = """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: b}
        spec:
          template:
            labels: {topology.kubernetes.io/zone: zone-b}
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 3
          startupDelay: 2m
          pricePerHour: 1
        ---
        """ + (withPoolA ? """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: a}
        spec:
          template:
            labels: {topology.kubernetes.io/zone: zone-a}
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 3
          startupDelay: 2m
          pricePerHour: 2
        ---
        """ : "") + """
        apiVersion: v1
        kind: Node
        metadata:
          name: full
          labels: {topology.kubernetes.io/zone: zone-a}
          annotations: {cluster-autoscaler.kubernetes.io/scale-down-disabled: "true"}
        status:
          capacity: {cpu: "1", memory: 4Gi, pods: "110"}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: big, namespace: default}
        spec:
          containers:
          - name: c
            image: big:1
            resources:
              requests: {cpu: "3"}
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: outage}
        spec:
          duration: 40m
          sampleInterval: 1m
          features: {%s}
          faults:
          - %s
        """.formatted(OFF + moreFeatures, outage);
    List<ApiObject<?>> objects = KubernetesYaml.parse(yaml, "test.yaml").objects();
    return ClusterSimulation.builder().objects(objects).build().run();
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  void aMachineLaunchedInAFailedZone_startsWhenTheZoneIsBack() {
    SimulationRun run = run("{at: 0s, zoneFailure: zone-b, recoverAfter: 5m}", false);
    assertThat(events(run, "ScaleUp")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofSeconds(10));
      assertThat(e.message()).contains("b-1");
    });
    assertThat(events(run, "NodeStartStalled")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofSeconds(10));
      assertThat(e.object()).isEqualTo("Node/b-1");
      assertThat(e.message()).isEqualTo("zone zone-b is down: the machine does not start until the zone is back");
    });
    assertThat(events(run, "NodeStartResumed")).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(5));
      assertThat(e.message()).isEqualTo("zone zone-b is back: the machine starts, ready in 2m");
    });
    // ready at the autoscaler's loop at 7m (its start-up from the recovery), not at 2m10s
    assertThat(events(run, "NodeReady")).filteredOn(e -> e.object().equals("Node/b-1")).singleElement()
        .satisfies(e -> assertThat(e.at()).isEqualTo(Duration.ofMinutes(7)));
    assertThat(events(run, "PodScheduled")).singleElement()
        .satisfies(e -> assertThat(e.at()).isEqualTo(Duration.ofMinutes(7)));
    assertThat(events(run, "NodeProvisionTimeout")).isEmpty();
  }

  /**
   * The Karpenter-style provisioner gives up on a node not Ready 15 minutes after its request (its NodeClaim
   * liveness) and launches another for the pod; in a zone still down that one waits too, and starts with the zone.
   */
  @Test
  void theProvisioner_givesUpOnAHeldMachineAfterItsRegistrationTtl_andTriesAgain() {
    SimulationRun run = run("{at: 0s, zoneFailure: zone-b, recoverAfter: 25m}", false,
        ", clusterAutoscaler: false, provisioner: true");
    assertThat(events(run, "NodeStartStalled")).extracting(TimelineEvent::object)
        .containsExactly("Node/fleetkit-1", "Node/fleetkit-2");
    TimelineEvent timeout = events(run, "NodeProvisionTimeout").get(0);
    assertThat(timeout.object()).isEqualTo("Node/fleetkit-1");
    assertThat(timeout.message()).isEqualTo("not ready within the provisioner's registration TTL (15m); deleted");
    TimelineEvent launched = events(run, "NodeStartStalled").get(0);
    assertThat(timeout.at()).isBetween(launched.at().plusMinutes(15), launched.at().plusMinutes(15).plusSeconds(10));
    assertThat(events(run, "NodeStartResumed")).singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo("Node/fleetkit-2");
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(25));
    });
    assertThat(events(run, "PodScheduled")).singleElement().satisfies(e -> {
      assertThat(e.message()).isEqualTo("to fleetkit-2");
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(27));
    });
  }

  @Test
  void aMachineInAZoneDownForLong_isGivenUpAfterTheProvisionTime_andAnotherPoolScalesUp() {
    SimulationRun run = run("{at: 0s, zoneFailure: zone-b, recoverAfter: 1h}", true);
    // the least-waste expander takes either pool (the same waste); the cheaper pool b when asked first here
    TimelineEvent first = events(run, "ScaleUp").get(0);
    assertThat(first.object()).isEqualTo("NodePool/b");
    assertThat(events(run, "NodeStartStalled")).extracting(TimelineEvent::object).containsExactly("Node/b-1");
    TimelineEvent timeout = events(run, "NodeProvisionTimeout").get(0);
    assertThat(timeout.object()).isEqualTo("Node/b-1");
    assertThat(timeout.at()).isEqualTo(Duration.ofMinutes(15).plusSeconds(20));
    TimelineEvent second = events(run, "ScaleUp").get(1);
    assertThat(second.object()).isEqualTo("NodePool/a");
    assertThat(second.at()).isEqualTo(timeout.at());
    assertThat(events(run, "PodScheduled")).singleElement().satisfies(e -> {
      assertThat(e.message()).isEqualTo("to a-1");
      assertThat(e.at()).isEqualTo(timeout.at().plusMinutes(2));
    });
  }
}
