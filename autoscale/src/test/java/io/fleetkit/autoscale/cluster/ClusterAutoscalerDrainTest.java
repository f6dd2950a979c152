package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The drain phase through the autoscaler's loops on a simulated clock: a node is tainted, its pods evicted, and it is
 * deleted only once they are gone; a drain that cannot finish fails, untaints the node and reports it.
 */
final class ClusterAutoscalerDrainTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  /**
   * Pool p with n1 (one small pod, the candidate) and n2 (busy); one loop finds n1 unneeded, and the clock is moved on
   * by the unneeded time, so that the next loop starts its deletion.
   */
  private ClusterAutoscaler setUp(Pod onN1, AutoscalerOptions options) {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    store.create(onN1.toBuilder().nodeName("n1").build());
    store.create(pod("keep", 2500, 1024).toBuilder().nodeName("n2").build());
    // the drain goes on in the loop that taints the node, as these cases were written (ClusterAutoscalerDeleteDelayTest
    // covers the delay after the taint)
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock)
        .options(options.withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
    assertThat(ca.runOnce().unneededNodes()).containsExactly("n1");
    clock.advance(options.scaleDownUnneededTime());
    return ca;
  }

  private static Pod held(String name) {
    Pod p = pod(name, 500, 512);
    return p.toBuilder().metadata(p.metadata().toBuilder().finalizers(List.of("test.fleetkit.io/hold")).build())
        .build();
  }

  private boolean tainted(String node) {
    return store.require(Node.class, "", node).spec().taints().stream()
        .anyMatch(t -> t.key().equals(ClusterAutoscaler.TO_BE_DELETED_TAINT));
  }

  @Test
  void drain_podLeavesLater_nodeDeletedOnlyOnceItIsGone() {
    ClusterAutoscaler ca = setUp(held("w"), AutoscalerOptions.defaults());
    LoopResult first = ca.runOnce();
    assertThat(first.deletionsStarted()).containsExactly("n1");
    assertThat(first.deletedNodes()).isEmpty();
    assertThat(tainted("n1")).isTrue();
    Pod w = store.require(Pod.class, "default", "w");
    assertThat(w.metadata().deletionTimestamp()).as("evicted, held by its finalizer").isNotNull();

    clock.advance(Duration.ofSeconds(10));
    LoopResult second = ca.runOnce();
    assertThat(second.deletedNodes()).isEmpty();
    assertThat(second.deletionsStarted()).isEmpty();
    assertThat(second.unneededNodes()).as("a node being deleted is no candidate").doesNotContain("n1");

    store.update(w.toBuilder().metadata(w.metadata().toBuilder().finalizers(List.of()).build()).build());
    clock.advance(Duration.ofSeconds(10));
    LoopResult third = ca.runOnce();
    assertThat(third.deletedNodes()).containsExactly("n1");
    assertThat(third.failedDeletions()).isEmpty();
    assertThat(store.get(Node.class, "", "n1")).isEmpty();
  }

  @Test
  void drain_podsRemainAfterGracePlusHeadroom_failsAndUntaints() {
    ClusterAutoscaler ca = setUp(held("w"), AutoscalerOptions.defaults().withMaxGracefulTerminationSec(60));
    assertThat(ca.runOnce().deletionsStarted()).containsExactly("n1");
    LoopResult r = null;
    for (int s = 10; s < 90; s += 10) { // waits 60 s + 30 s headroom
      clock.advance(Duration.ofSeconds(10));
      r = ca.runOnce();
      assertThat(r.failedDeletions()).as("at %s s", s).isEmpty();
      assertThat(tainted("n1")).isTrue();
    }
    clock.advance(Duration.ofSeconds(10));
    r = ca.runOnce();
    assertThat(r.failedDeletions()).containsOnlyKeys("n1");
    NodeDeleteResult failed = r.failedDeletions().get("n1");
    assertThat(failed.type()).isEqualTo(NodeDeleteResult.Type.FAILED_TO_EVICT_PODS);
    assertThat(failed.error().type()).isEqualTo(AutoscalerError.Type.TRANSIENT_ERROR);
    assertThat(failed.podEvictionResults().get("w").timedOut()).isTrue();
    assertThat(r.deletedNodes()).isEmpty();
    assertThat(store.get(Node.class, "", "n1")).isPresent();
    assertThat(tainted("n1")).isFalse();
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().deletionsStarted()).as("unneeded again only after the unneeded time").isEmpty();
  }

  @Test
  void drain_budgetRefusesEviction_retriedUntilMaxPodEvictionTime_thenFails() {
    // the planner reads disruptionsAllowed 1; the eviction subresource refuses: the budget's status is of an older
    // generation
    store.create(PodDisruptionBudget.of(ObjectMeta.of("default", "db"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("app", "db")), IntOrPercent.of(1)))
        .withStatus(new PodDisruptionBudgetStatus(0, Map.of(), 1, 2, 1, 2, List.of())));
    Pod ready = pod("w", 500, 512).toBuilder().label("app", "db").status(PodStatus.of(PodPhase.Running)
        .withCondition(PodCondition.of(PodCondition.READY, ConditionStatus.True, "", "", clock.instant()))).build();
    ClusterAutoscaler ca = setUp(ready, AutoscalerOptions.defaults());
    assertThat(ca.runOnce().deletionsStarted()).containsExactly("n1");
    assertThat(store.get(Pod.class, "default", "w")).as("eviction refused").isPresent();
    LoopResult r = null;
    for (int s = 10; s < 120; s += 10) { // retried every 10 s while before 2 min; failed when woken at 2 min
      clock.advance(Duration.ofSeconds(10));
      r = ca.runOnce();
      assertThat(r.failedDeletions()).as("at %s s", s).isEmpty();
    }
    clock.advance(Duration.ofSeconds(10));
    r = ca.runOnce();
    NodeDeleteResult failed = r.failedDeletions().get("n1");
    assertThat(failed).isNotNull();
    assertThat(failed.type()).isEqualTo(NodeDeleteResult.Type.FAILED_TO_EVICT_PODS);
    assertThat(failed.error().type()).isEqualTo(AutoscalerError.Type.API_CALL_ERROR);
    assertThat(failed.podEvictionResults().get("w").error()).contains("within allowed timeout");
    assertThat(store.get(Pod.class, "default", "w")).isPresent();
    assertThat(tainted("n1")).isFalse();
  }

  @Test
  void scaleDownDelayAfterDelete_noDeletionStartsUntilItHasPassed() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    for (String n : List.of("e1", "e2", "busy")) {
      store.create(poolNode(p, n));
    }
    store.create(pod("keep", 2500, 1024).toBuilder().nodeName("busy").build());
    AutoscalerOptions o = AutoscalerOptions.defaults().withMaxEmptyBulkDelete(1)
        .withScaleDownDelayAfterDelete(Duration.ofMinutes(1));
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock)
        .options(o.withNodeDeleteDelayAfterTaint(Duration.ZERO)).build();
    assertThat(ca.runOnce().unneededNodes()).containsExactlyInAnyOrder("e1", "e2");
    clock.advance(Duration.ofMinutes(10));
    assertThat(ca.runOnce().deletedNodes()).hasSize(1); // one empty node per loop (maxEmptyBulkDelete 1)
    for (int s = 10; s < 60; s += 10) {
      clock.advance(Duration.ofSeconds(10));
      assertThat(ca.runOnce().deletionsStarted()).as("at %s s", s).isEmpty();
    }
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().deletedNodes()).hasSize(1);
    assertThat(store.list(Node.class).items()).extracting(Node::name).containsExactly("busy");
  }

  @Test
  void scaleDownDelayAfterFailure_aRefusedTaintHoldsDeletionsForThreeMinutes() {
    ActuationFixtures f = new ActuationFixtures(); // its store refuses the updates of the nodes named
    NodePool p = pool("p", 4000, 8192, 0, 10);
    f.store.create(p);
    for (String n : List.of("e1", "busy")) {
      f.store.create(poolNode(p, n));
    }
    f.store.create(pod("keep", 2500, 1024).toBuilder().nodeName("busy").build());
    ClusterAutoscaler ca = ClusterAutoscaler.builder(f.store).clock(f.clock)
        .options(AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(Duration.ZERO))
        .build();
    assertThat(ca.runOnce().unneededNodes()).containsExactly("e1");
    f.failedNodeTaint.add("e1");
    f.clock.advance(Duration.ofMinutes(10));
    LoopResult failed = ca.runOnce();
    assertThat(failed.deletionsStarted()).isEmpty();
    assertThat(failed.failedDeletions()).as("a refused taint fails the call, not a node's deletion").isEmpty();
    f.failedNodeTaint.clear();
    for (int s = 10; s < 180; s += 10) {
      f.clock.advance(Duration.ofSeconds(10));
      assertThat(ca.runOnce().deletionsStarted()).as("at %s s", s).isEmpty();
    }
    f.clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().deletedNodes()).containsExactly("e1");
  }
}
