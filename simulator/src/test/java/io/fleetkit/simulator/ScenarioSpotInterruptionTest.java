package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import java.time.Duration;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A spot interruption ({@link SpotInterruptions}): the cloud warns, takes the machine back at the end of the notice,
 * the cloud node lifecycle controller deletes the node once it is not Ready, the pod garbage collector deletes its
 * pods, the ReplicaSet recreates them and the cluster autoscaler launches a node for them.
 */
final class ScenarioSpotInterruptionTest {
  private static final String OFF = "horizontalPodAutoscaler: false, storage: false, verticalPodAutoscaler: false, "
      + "queueAdmission: false, queueScaling: false";

  /** Pool {@code spot} (4 CPU nodes, up to 4), a Deployment of two 3-CPU pods (one per node), the {@code fault}. */
  private static List<ApiObject<?>> objects(String fault) {
    return objects(fault, "");
  }

  private static List<ApiObject<?>> objects(String fault, String features) {
    String yaml = """
        apiVersion: fleetkit.io/v1alpha1
        kind: NodePool
        metadata: {name: spot}
        spec:
          template:
            capacity: {cpu: "4", memory: 16Gi, pods: "110"}
          minSize: 0
          maxSize: 4
          startupDelay: 1m
          pricePerHour: 1
        ---
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web, namespace: default}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: c
                image: app:1
                resources:
                  requests: {cpu: "3", memory: 1Gi}
        ---
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: spot}
        spec:
          duration: 1h
          sampleInterval: 1m
          features: {%s}
          faults:
          - %s
        """.formatted(OFF + features, fault);
    return KubernetesYaml.parse(yaml, "test.yaml").objects();
  }

  private static SimulationRun run(String fault) {
    return ClusterSimulation.builder().objects(objects(fault)).build().run();
  }

  private static SimulationRun run(String fault, String features) {
    return ClusterSimulation.builder().objects(objects(fault, features)).build().run();
  }

  private static List<TimelineEvent> events(SimulationRun run, String kind) {
    return run.timeline().stream().filter(e -> e.kind().equals(kind)).toList();
  }

  @Test
  void spotInterruption_warningThenMachineGone_nodeDeleted_podsRecreatedOnANewNode() {
    SimulationRun run = run("{at: 30m, spotInterruption: spot, nodes: 1, notice: 2m}");
    TimelineEvent warning = events(run, SpotInterruptions.WARNING).get(0);
    assertThat(events(run, SpotInterruptions.WARNING)).hasSize(1);
    assertThat(warning.at()).isEqualTo(Duration.ofMinutes(30));
    assertThat(warning.object()).isIn("Node/spot-1", "Node/spot-2");
    assertThat(warning.message()).contains("NodePool spot").contains("back at 0:32").contains("notice 2m");
    String node = warning.object();

    assertThat(events(run, SpotInterruptions.INTERRUPTED)).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(32));
      assertThat(e.object()).isEqualTo(node);
    });
    // the kubelet stops; the node lifecycle controller marks the node unreachable once its last Lease renewal (up to
    // 10 s before the machine went) is 50 s old, and the next 5 s pass of the cloud node lifecycle controller
    // deletes it
    TimelineEvent unreachable = events(run, "NodeUnreachable").stream().filter(e -> e.object().equals(node))
        .findFirst().orElseThrow();
    assertThat(unreachable.at()).isBetween(Duration.ofMinutes(32).plusSeconds(40),
        Duration.ofMinutes(32).plusSeconds(55));
    TimelineEvent deleting = events(run, "DeletingNode").get(0);
    assertThat(events(run, "DeletingNode")).hasSize(1);
    assertThat(deleting.object()).isEqualTo(node);
    assertThat(deleting.message()).isEqualTo("Deleting node " + node.substring(5) + " because it does not exist in"
        + " the cloud provider");
    assertThat(deleting.at()).isBetween(unreachable.at(), unreachable.at().plusSeconds(5));
    TimelineEvent deleted = events(run, "NodeDeleted").get(0);
    assertThat(events(run, "NodeDeleted")).hasSize(1);
    assertThat(deleted.object()).isEqualTo(node);
    assertThat(deleted.at()).isEqualTo(deleting.at());

    // the pod on it is recreated by the ReplicaSet and runs on a node the autoscaler launched
    List<TimelineEvent> recreated = run.timeline().stream().filter(e -> e.kind().equals("PodCreated")
        && e.at().compareTo(deleted.at()) > 0).toList();
    assertThat(recreated).singleElement().satisfies(e -> assertThat(e.message()).startsWith("by ReplicaSet/web-"));
    String pod = recreated.get(0).object();
    assertThat(events(run, "ScaleUp")).anySatisfy(e -> {
      assertThat(e.at()).isGreaterThan(deleted.at());
      assertThat(e.object()).isEqualTo("NodePool/spot");
    });
    assertThat(events(run, "PodScheduled")).anySatisfy(e -> {
      assertThat(e.object()).isEqualTo(pod);
      assertThat(e.message()).isEqualTo("to spot-3");
    });
    // a marker on the time axis, named in the report's faults
    assertThat(run.markers()).extracting(TimelineEvent::kind).contains(SpotInterruptions.WARNING);
    assertThat(ReportSummary.faultLines(run.markers())).containsExactly("spot node " + node.substring(5)
        + " warned at 0:30 (" + warning.message() + ")");
    // the same seed picks the same node
    assertThat(events(run("{at: 30m, spotInterruption: spot, nodes: 1, notice: 2m}"), SpotInterruptions.WARNING))
        .extracting(TimelineEvent::object).containsExactly(node);
  }

  @Test
  void provisioner_warningStartsTheTermination_podMovesBeforeTheMachineGoes() {
    SimulationRun run = run("{at: 30m, spotInterruption: spot, notice: 2m}",
        ", clusterAutoscaler: false, provisioner: true");
    TimelineEvent warning = events(run, SpotInterruptions.WARNING).get(0);
    String node = warning.object();
    assertThat(node).isIn("Node/fleetkit-1", "Node/fleetkit-2");
    // Karpenter's interruption controller: the node is tainted and drained from the warning on
    assertThat(events(run, SpotInterruptions.DRAINING)).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(Duration.ofMinutes(30));
      assertThat(e.object()).isEqualTo(node);
    });
    Duration goes = Duration.ofMinutes(32);
    // its pod is recreated and runs on a node launched for it before the machine goes, and the drained node is
    // deleted by the provisioner, not by the cloud node lifecycle controller
    List<TimelineEvent> recreated = run.timeline().stream().filter(e -> e.kind().equals("PodCreated")
        && e.at().compareTo(warning.at()) >= 0).toList();
    assertThat(recreated).singleElement();
    assertThat(events(run, "PodScheduled")).anySatisfy(e -> {
      assertThat(e.object()).isEqualTo(recreated.get(0).object());
      assertThat(e.at()).isLessThan(goes);
      assertThat(e.message()).isEqualTo("to fleetkit-3");
    });
    assertThat(events(run, "NodeDeleted")).singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo(node);
      assertThat(e.at()).isLessThan(goes);
    });
    assertThat(events(run, "DeletingNode")).isEmpty();
    assertThat(events(run, SpotInterruptions.INTERRUPTED)).singleElement().satisfies(e -> {
      assertThat(e.at()).isEqualTo(goes);
      assertThat(e.message()).contains("its node was already deleted");
    });
  }

  @Test
  void spotInterruption_moreNodesThanThePoolHas_takesThemAll_defaultNotice() {
    SimulationRun run = run("{at: 30m, spotInterruption: spot, nodes: 5}");
    assertThat(events(run, SpotInterruptions.WARNING)).extracting(TimelineEvent::object)
        .containsExactlyInAnyOrder("Node/spot-1", "Node/spot-2");
    assertThat(events(run, SpotInterruptions.INTERRUPTED)).hasSize(2)
        .allSatisfy(e -> assertThat(e.at()).isEqualTo(Duration.ofMinutes(30).plus(Duration.ofMinutes(2))));
    assertThat(events(run, "NodeDeleted")).extracting(TimelineEvent::object)
        .containsExactlyInAnyOrder("Node/spot-1", "Node/spot-2");
  }

  @Test
  void spotInterruption_poolWithoutReadyNodes_recordedAsSkipped() {
    SimulationRun run = run("{at: 0s, spotInterruption: spot}");
    assertThat(events(run, ClusterSimulation.FAULT_SKIPPED)).singleElement().satisfies(e -> {
      assertThat(e.object()).isEqualTo("NodePool/spot");
      assertThat(e.message()).contains("has no Ready node");
    });
    assertThat(events(run, SpotInterruptions.WARNING)).isEmpty();
  }

  @Test
  void pick_isSeededAndDrawsAtMostTheNodesThereAre() {
    List<String> names = List.of("a", "b", "c", "d");
    assertThat(SpotInterruptions.pick(names, 2, new SplittableRandom(7)))
        .isEqualTo(SpotInterruptions.pick(names, 2, new SplittableRandom(7))).hasSize(2).doesNotHaveDuplicates();
    assertThat(SpotInterruptions.pick(names, 9, new SplittableRandom(1))).containsExactlyInAnyOrderElementsOf(names);
  }

  @Test
  void badFault_rejectedNamingTheField() {
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(objects("{at: 0s, spotInterruption: nope}"))
        .build()).isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.faults[0].spotInterruption \"nope\" names no NodePool among the manifests"
            + " (pools: [spot])");
    assertThatThrownBy(() -> ClusterSimulation.builder()
        .objects(objects("{at: 0s, spotInterruption: spot, nodes: 0}")).build())
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.faults[0].nodes").hasMessageContaining("must be at least 1");
    assertThatThrownBy(() -> ClusterSimulation.builder()
        .objects(objects("{at: 0s, spotInterruption: spot, notice: -1m}")).build())
        .isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.faults[0].notice");
  }
}
