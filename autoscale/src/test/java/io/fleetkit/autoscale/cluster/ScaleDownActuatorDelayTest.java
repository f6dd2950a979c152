package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.ActuationFixtures.removablePod;
import static io.fleetkit.autoscale.cluster.ActuationFixtures.removablePods;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code nodeDeleteDelayAfterTaint} and {@code cordonNodeBeforeTerminating} on the actuator, on a simulated clock:
 * upstream's {@code deleteNodesAsync} (kubernetes/autoscaler {@code core/scaledown/actuation/actuator.go}) sleeps the
 * delay after tainting, on the empty and the drain path alike, before it checks the node's pods, drains and deletes
 * it; {@code MarkToBeDeleted} and {@code CleanToBeDeleted} (utils/taints) cordon and uncordon with the taint.
 */
final class ScaleDownActuatorDelayTest {
  private static final Duration DELAY = Duration.ofSeconds(5);

  private final ActuationFixtures f = new ActuationFixtures();

  private ScaleDownActuator actuator(Duration delay, boolean cordon) {
    AutoscalerOptions opts = AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(delay)
        .withCordonNodeBeforeTerminating(cordon);
    return ScaleDownActuator.overStore(f.store, opts, ScaleDownEvictor.Timing.of(opts));
  }

  private List<Node> nodes(int count) {
    return f.nodes(ActuationFixtures.pool("test", false), "test", 0, count);
  }

  private boolean exists(String node) {
    return f.store.get(Node.class, "", node).isPresent();
  }

  private Node node(String node) {
    return f.store.require(Node.class, "", node);
  }

  @Test
  void emptyNode_deletedExactlyTheDelayAfterItsTaint() {
    ScaleDownActuator a = actuator(DELAY, false);
    Instant t0 = f.clock.instant();
    a.startDeletion(nodes(1), List.of(), t0);
    a.advance(t0);
    assertThat(NodeTaintWrites.has(node("test-node-0"), ClusterAutoscaler.TO_BE_DELETED_TAINT)).isTrue();
    assertThat(a.nextStep()).isEqualTo(t0.plus(DELAY));

    a.advance(t0.plus(DELAY).minusMillis(1));
    assertThat(exists("test-node-0")).as("still within the delay").isTrue();
    assertThat(a.takeDeleted()).isEmpty();

    a.advance(t0.plus(DELAY));
    assertThat(exists("test-node-0")).isFalse();
    assertThat(a.takeDeleted()).containsExactly("test-node-0");
    assertThat(a.nextStep()).isNull();
    assertThat(a.busy()).isFalse();
  }

  @Test
  void drainedNode_evictedOnlyAfterTheDelay() {
    ScaleDownActuator a = actuator(DELAY, false);
    f.create(removablePods(2, "test-node-0"));
    Instant t0 = f.clock.instant();
    a.startDeletion(List.of(), nodes(1), t0);
    a.advance(t0.plusSeconds(4));
    assertThat(f.evictedPods).as("no eviction within the delay").isEmpty();
    assertThat(a.drainsInProgress()).isEqualTo(1);

    a.advance(t0.plus(DELAY));
    f.finishTerminating();
    assertThat(f.evictedPods).containsExactlyInAnyOrder("test-node-0-pod-0", "test-node-0-pod-1");
    f.runUntilIdle(a);
    assertThat(exists("test-node-0")).isFalse();
  }

  @Test
  void zeroDelay_deletedWhenTainted() {
    ScaleDownActuator a = actuator(Duration.ZERO, false);
    Instant t0 = f.clock.instant();
    a.startDeletion(nodes(1), List.of(), t0);
    assertThat(a.nextStep()).isEqualTo(t0);
    a.advance(t0);
    assertThat(exists("test-node-0")).isFalse();
  }

  @Test
  void emptyNode_podLandsDuringTheDelay_deletionFailsAndThePodStays() {
    ScaleDownActuator a = actuator(DELAY, true);
    Instant t0 = f.clock.instant();
    a.startDeletion(nodes(1), List.of(), t0);
    // a pod that tolerates the taint (or is bound directly) lands on the node while the actuator waits
    f.create(List.of(removablePod("late", "test-node-0")));
    a.advance(t0.plus(DELAY));

    assertThat(exists("test-node-0")).isTrue();
    assertThat(f.store.get(Pod.class, "default", "late")).isPresent();
    Map<String, NodeDeleteResult> failed = a.takeFailures();
    assertThat(failed).containsOnlyKeys("test-node-0");
    assertThat(failed.get("test-node-0").type()).isEqualTo(NodeDeleteResult.Type.INTERNAL);
    assertThat(String.valueOf(failed.get("test-node-0").error())).contains("new pods scheduled");
    assertThat(NodeTaintWrites.has(node("test-node-0"), ClusterAutoscaler.TO_BE_DELETED_TAINT)).isFalse();
    assertThat(node("test-node-0").spec().unschedulable()).as("uncordoned with the taint").isFalse();
  }

  @Test
  void drainedNode_podLandsDuringTheDelay_evictedWithTheOthers() {
    ScaleDownActuator a = actuator(DELAY, false);
    f.create(removablePods(1, "test-node-0"));
    Instant t0 = f.clock.instant();
    a.startDeletion(List.of(), nodes(1), t0);
    f.create(List.of(removablePod("late", "test-node-0")));
    f.clock.advance(DELAY);
    f.runUntilIdle(a);

    assertThat(f.evictedPods).as("evicted through the eviction API, so its controller would recreate it")
        .containsExactlyInAnyOrder("test-node-0-pod-0", "late");
    assertThat(exists("test-node-0")).isFalse();
  }

  @Test
  void cordon_taintedNodeIsCordonedUntilDeleted() {
    ScaleDownActuator a = actuator(DELAY, true);
    Instant t0 = f.clock.instant();
    a.startDeletion(nodes(1), List.of(), t0);
    assertThat(node("test-node-0").spec().unschedulable()).isTrue();
    assertThat(f.taintUpdates.get("test-node-0")).as("taint and cordon in one write")
        .containsExactly(List.of(ClusterAutoscaler.TO_BE_DELETED_TAINT + ":NoSchedule"));
    a.advance(t0.plus(DELAY));
    assertThat(exists("test-node-0")).isFalse();
  }

  @Test
  void noCordon_taintedNodeStaysSchedulable() {
    ScaleDownActuator a = actuator(DELAY, false);
    a.startDeletion(nodes(1), List.of(), f.clock.instant());
    assertThat(node("test-node-0").spec().unschedulable()).isFalse();
  }

  @Test
  void cordon_failedTaintOfAnotherNode_earlierNodeUncordoned() {
    // upstream's taintNodesSync: a refused taint cleans the taints already put, with the cordon flag
    ScaleDownActuator a = actuator(DELAY, true);
    List<Node> nodes = nodes(2);
    f.failedNodeTaint.add("test-node-1");
    ScaleDownStatus st = a.startDeletion(nodes, List.of(), f.clock.instant());
    assertThat(st.result()).isEqualTo(ScaleDownStatus.Result.ERROR);
    assertThat(NodeTaintWrites.has(node("test-node-0"), ClusterAutoscaler.TO_BE_DELETED_TAINT)).isFalse();
    assertThat(node("test-node-0").spec().unschedulable()).isFalse();
  }
}
