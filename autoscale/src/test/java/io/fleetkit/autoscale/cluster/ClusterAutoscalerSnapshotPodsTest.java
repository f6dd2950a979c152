package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Scale-down evaluates the cluster snapshot scale-up's filter left, as upstream's {@code RunOnce} runs the planner on
 * the snapshot its pod-list processors changed (cluster-autoscaler-release-1.37, {@code core/static_autoscaler.go}):
 * a pending pod the filter placed on a node is on it in the drain simulations and counts in its utilization
 * ({@code eligibility.go} reads the snapshot's NodeInfo), and a pod waiting for preemption is on its nominated node
 * ({@code SetClusterState} with the {@code NominatedNode} pods of {@code ArrangePodsBySchedulability}), never a reason
 * to scale up.
 *
 * <p>The cluster: pool node {@code n1} (4 CPUs) runs {@code w} (0.5 CPU), the candidate; {@code n2}, a node of no pool
 * (never a candidate), has 1 CPU free. The filter's first search starts at the second node, {@code n2}.
 */
final class ClusterAutoscalerSnapshotPodsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();
  private ClusterAutoscaler ca;

  @BeforeEach
  void setUp() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(Node.builder().name("n2").capacity(CaFixtures.resources(4000, 8192 * CaFixtures.MI, 110)).ready()
        .build());
    store.create(pod("w", 500, 64).toBuilder().nodeName("n1").build());
    store.create(pod("keep", 3000, 64).toBuilder().nodeName("n2").build());
    ca = ClusterAutoscaler.builder(store).clock(clock).build();
  }

  @AfterEach
  void close() {
    store.close();
  }

  @Test
  void pendingPodTheFilterPlaced_takesTheRoomADrainNeeds() {
    store.create(pod("new", 800, 64));
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).as("it fits n2: filtered out").isEmpty();
    assertThat(r.launchedNodes()).isEmpty();
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
  }

  @Test
  void withoutThePendingPod_theSameNodeIsUnneeded() {
    LoopResult r = ca.runOnce();
    assertThat(r.unneededNodes()).containsExactly("n1");
  }

  @Test
  void pendingPodTheFilterPlacedOnTheCandidate_countsInItsUtilization() {
    store.create(pod("big", 1800, 64)); // fits n1 only: (500 + 1800) / 4000 = 57.5 % > 50 %
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NOT_UNDERUTILIZED);
  }

  @Test
  void podWaitingForPreemption_isOnItsNominatedNode_andNoReasonToScaleUp() {
    // 3.8 CPUs fit no node as it is (n1 has 3.5 free, n2 1): a pending pod would scale p up
    Pod pre = pod("pre", 3800, 64);
    store.create(pre.toBuilder().status(PodStatus.of(PodPhase.Pending).withNominatedNodeName("n2")).build());
    LoopResult r = ca.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).isEmpty();
    assertThat(r.launchedNodes()).isEmpty();
    assertThat(r.unremovableNodes()).as("n2 holds pre: no room for w").containsEntry("n1",
        ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
  }

  /**
   * A pod waiting for preemption on a node being deleted is one of that node's pods the planner places elsewhere, as
   * upstream's {@code currentlyDrainedPods} lists the pods of the node's snapshot NodeInfo, the nominated ones with the
   * bound ones ({@code core/podlistprocessor/currently_drained_nodes.go}): here it fits {@code n1} only (3.5 CPUs free),
   * which it then fills beyond the threshold.
   */
  @Test
  void podNominatedToANodeBeingDeleted_isPlacedElsewhere() {
    store.create(Node.builder().name("n3").capacity(CaFixtures.resources(4000, 8192 * CaFixtures.MI, 110)).ready()
        .taint(Taint.of(ClusterAutoscaler.TO_BE_DELETED_TAINT, Long.toString(clock.instant().getEpochSecond()),
            TaintEffect.NoSchedule))
        .build());
    store.create(pod("pre", 3200, 64).toBuilder().status(PodStatus.of(PodPhase.Pending).withNominatedNodeName("n3"))
        .build());
    ClusterAutoscaler deleting = ClusterAutoscaler.builder(store).clock(clock)
        .actuationStatus(new ActuationStatus(Set.of("n3"), List.of())).build();
    LoopResult r = deleting.runOnce();
    assertThat(r.scaleUp().unschedulablePods()).isEmpty();
    assertThat(r.launchedNodes()).isEmpty();
    assertThat(r.unneededNodes()).as("pre on n1: (500 + 3200) / 4000").isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NOT_UNDERUTILIZED)
        .doesNotContainKey("n3");
  }

  /**
   * The evaluation of a loop with the same inputs is reused; a pending pod the filter places is one of its inputs, so
   * a loop that differs from the last only by it is evaluated anew.
   */
  @Test
  void reuse_aNewPendingPodPlacedIsANewInput() {
    assertThat(ca.runOnce().unneededNodes()).containsExactly("n1");
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().unneededNodes()).containsExactly("n1"); // each pod on its hint: reusable
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().unneededNodes()).containsExactly("n1");
    store.create(pod("new", 800, 64));
    clock.advance(Duration.ofSeconds(10));
    LoopResult r = ca.runOnce();
    assertThat(r.unneededNodes()).isEmpty();
    assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
  }

  /**
   * Ported from kubernetes/autoscaler cluster-autoscaler/core/static_autoscaler_test.go (branch
   * cluster-autoscaler-release-1.37, commit a16f0ae8), TestStaticAutoscalerRunOnceWithNominatedNodeName: n1 (2 CPUs)
   * of group ng1 (0 to 10) runs p1 (1.4 CPUs); p2 (1.4 CPUs, unschedulable) is nominated to n1 and "should not trigger
   * a scale up" (upstream's scale-up mock expects no call; nor does its scale-down mock).
   */
  @Test
  void upstreamRunOnceWithNominatedNodeName_noScaleUp() {
    ManualClock c = ManualClock.atEpoch2026();
    try (ObjectStore s = ObjectStore.builder().clock(c).directDelivery().build()) {
      NodePool ng1 = pool("ng1", 2000, 1000, 0, 10);
      s.create(ng1);
      s.create(poolNode(ng1, "n1"));
      s.create(pod("p1", 1400, 0).toBuilder().nodeName("n1").build());
      s.create(pod("p2", 1400, 0).toBuilder().status(PodStatus.of(PodPhase.Pending).withNominatedNodeName("n1"))
          .build());
      LoopResult r = ClusterAutoscaler.builder(s).clock(c).build().runOnce();
      assertThat(r.scaleUp().unschedulablePods()).isEmpty();
      assertThat(r.launchedNodes()).isEmpty();
      assertThat(r.deletionsStarted()).isEmpty();
      assertThat(s.list(Node.class).items()).extracting(Node::name).containsExactly("n1");
    }
  }
}
