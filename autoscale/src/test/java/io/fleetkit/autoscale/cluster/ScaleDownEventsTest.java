package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.events.EventRecorder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The scale-down events upstream's actuation records (kubernetes/autoscaler {@code cluster-autoscaler/core/scaledown/
 * actuation/actuator.go} {@code taintNode}, {@code drain.go} {@code evictPod}, {@code delete_in_batch.go}
 * {@code RegisterAndRecordSuccessfulScaleDownEvent} and {@code CleanUpAndRecordFailedScaleDownEvent}, commit
 * 0e20a385), on the store and options of {@link ScaleDownActuatorTest}.
 */
final class ScaleDownEventsTest {
  private final ActuationFixtures f = new ActuationFixtures();
  /**
   * {@code type reason action kind/name: note}, in order, of the node and pod events (those on the status ConfigMap
   * are {@code ClusterAutoscalerStatusEventsTest}'s).
   */
  private final List<String> events = new ArrayList<>();
  /** The status ConfigMap's events, {@code type reason: note}, in order. */
  private final List<String> status = new ArrayList<>();
  private final EventRecorder recorder = (regarding, related, type, reason, action, note) -> {
    if (!regarding.kind().equals("ConfigMap")) {
      events.add(type + " " + reason + " " + action + " " + regarding.kind() + "/" + regarding.name() + ": " + note);
    } else {
      status.add(type + " " + reason + ": " + note);
    }
  };

  private ScaleDownActuator actuator() {
    AutoscalerOptions opts = AutoscalerOptions.defaults().withMaxEmptyBulkDelete(10).withMaxDrainParallelism(5)
        .withMaxPodEvictionTime(Duration.ZERO).withDaemonSetEvictionForEmptyNodes(true)
        .withDaemonSetEvictionForOccupiedNodes(false).withMaxGracefulTerminationSec(60)
        .withNodeDeleteDelayAfterTaint(Duration.ZERO).withCordonNodeBeforeTerminating(false);
    return new ScaleDownActuator(f.store, opts,
        new ScaleDownEvictor.Timing(60, Duration.ZERO, Duration.ZERO, ScaleDownEvictor.POD_EVICTION_HEADROOM),
        node -> f.store.list(io.fleetkit.api.core.Pod.class, "",
            (io.fleetkit.api.core.Pod p) -> p.spec().nodeName().equals(node)).items(), recorder);
  }

  @Test
  void emptyAndDrainedNodes_markedThenRemoved_podsAnnouncedBeforeEviction() {
    List<Node> empty = f.nodes(ActuationFixtures.pool("test", false), "empty", 0, 1);
    List<Node> drain = f.nodes(ActuationFixtures.pool("test", false), "drain", 0, 1);
    f.create(ActuationFixtures.removablePods(2, "drain-node-0"));
    ScaleDownActuator a = actuator();

    a.startDeletion(empty, drain, f.clock.instant());
    f.runUntilIdle(a);

    assertThat(events).containsExactlyInAnyOrder(
        "Normal ScaleDown ScaleDown Node/empty-node-0: marked the node as toBeDeleted/unschedulable",
        "Normal ScaleDown ScaleDown Node/drain-node-0: marked the node as toBeDeleted/unschedulable",
        "Normal ScaleDown ScaleDown Pod/drain-node-0-pod-0: deleting pod for node scale down",
        "Normal ScaleDown ScaleDown Pod/drain-node-0-pod-1: deleting pod for node scale down",
        "Normal ScaleDown ScaleDown Node/empty-node-0: nodes removed by cluster autoscaler",
        "Normal ScaleDown ScaleDown Node/drain-node-0: nodes removed by cluster autoscaler");
    // a node is marked before anything else happens to it, and removed last
    assertThat(events.indexOf("Normal ScaleDown ScaleDown Node/drain-node-0: marked the node as "
        + "toBeDeleted/unschedulable")).isLessThan(events.indexOf(
        "Normal ScaleDown ScaleDown Pod/drain-node-0-pod-0: deleting pod for node scale down"));
    assertThat(events.get(events.size() - 1)).endsWith("nodes removed by cluster autoscaler");
  }

  @Test
  void failedEviction_podAndNodeScaleDownFailed_noRemoval() {
    List<Node> drain = f.nodes(ActuationFixtures.pool("test", false), "drain", 0, 1);
    f.create(ActuationFixtures.removablePods(2, "drain-node-0"));
    f.failedPodDrain.add("drain-node-0-pod-1");
    ScaleDownActuator a = actuator();

    a.startDeletion(List.of(), drain, f.clock.instant());
    f.runUntilIdle(a);

    assertThat(events).contains(
        "Normal ScaleDown ScaleDown Pod/drain-node-0-pod-1: deleting pod for node scale down",
        "Warning ScaleDownFailed ScaleDown Pod/drain-node-0-pod-1: failed to delete pod for ScaleDown");
    assertThat(events).filteredOn(e -> e.startsWith("Warning ScaleDownFailed ScaleDown Node/drain-node-0: "))
        .singleElement().satisfies(e -> assertThat(e).contains("failed to drain and delete node: "));
    assertThat(events).noneMatch(e -> e.endsWith("nodes removed by cluster autoscaler"));
    assertThat(events).filteredOn(e -> e.contains("deleting pod for node scale down")).hasSize(2);
  }

  @Test
  void failedTaint_nodeScaleDownFailed() {
    List<Node> empty = f.nodes(ActuationFixtures.pool("test", false), "empty", 0, 1);
    f.failedNodeTaint.add("empty-node-0");
    ScaleDownActuator a = actuator();

    a.startDeletion(empty, List.of(), f.clock.instant());
    f.runUntilIdle(a);

    assertThat(events).singleElement().satisfies(e -> assertThat(e).startsWith(
        "Warning ScaleDownFailed ScaleDown Node/empty-node-0: failed to mark the node as toBeDeleted/unschedulable: "));
  }

  @Test
  void failedNodeDeletion_emptyNode_failedToDeleteEmptyNode() {
    List<Node> empty = f.nodes(ActuationFixtures.pool("test", false), "empty", 0, 1);
    f.failedNodeDeletion.add("empty-node-0");
    ScaleDownActuator a = actuator();

    a.startDeletion(empty, List.of(), f.clock.instant());
    f.runUntilIdle(a);

    assertThat(events).first().asString().endsWith("marked the node as toBeDeleted/unschedulable");
    assertThat(events).last().asString().startsWith(
        "Warning ScaleDownFailed ScaleDown Node/empty-node-0: failed to delete empty node: ");
    // the status ConfigMap has the start, and no removal
    assertThat(status).containsExactly("Normal ScaleDownEmpty: Scale-down: removing empty node \"empty-node-0\"");
  }

  @Test
  void failedEviction_statusHasTheDrainsStart_noRemoval() {
    List<Node> drain = f.nodes(ActuationFixtures.pool("test", false), "drain", 0, 1);
    f.create(ActuationFixtures.removablePods(2, "drain-node-0"));
    f.failedPodDrain.add("drain-node-0-pod-1");
    ScaleDownActuator a = actuator();

    a.startDeletion(List.of(), drain, f.clock.instant());
    f.runUntilIdle(a);

    assertThat(status).singleElement().asString()
        .startsWith("Normal ScaleDown: Scale-down: removing node drain-node-0, utilization: {")
        .endsWith("}, pods to reschedule: drain-node-0-pod-0,drain-node-0-pod-1");
  }

  @Test
  void failedTaint_noStatusEvent() {
    List<Node> empty = f.nodes(ActuationFixtures.pool("test", false), "empty", 0, 1);
    f.failedNodeTaint.add("empty-node-0");

    actuator().startDeletion(empty, List.of(), f.clock.instant());

    assertThat(status).isEmpty(); // upstream records ScaleDownEmpty only once the taints are on
  }
}
