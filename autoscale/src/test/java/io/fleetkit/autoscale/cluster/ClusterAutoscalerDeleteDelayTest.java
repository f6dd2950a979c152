package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodCondition;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --node-delete-delay-after-taint} and {@code --cordon-node-before-terminating} through the autoscaler on a
 * simulated clock: the loop that decides a removal taints (and cordons) the node; the deletion goes on
 * {@code nodeDeleteDelayAfterTaint} later, at {@link ClusterAutoscaler#nextDeletionStep()}, in
 * {@link ClusterAutoscaler#advanceDeletions()} (upstream's deletion goroutine waking from its sleep), and pods that
 * landed on the node meanwhile are not lost.
 */
final class ClusterAutoscalerDeleteDelayTest {
  private static final Duration DELAY = Duration.ofSeconds(5);

  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  /**
   * Pool p with n1 (holding {@code onN1}, or empty) and n2 (busy); a loop finds n1 unneeded and the clock moves on by
   * the unneeded time, so that the next loop starts its deletion.
   */
  private ClusterAutoscaler setUp(@Nullable Pod onN1, AutoscalerOptions options) {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    if (onN1 != null) {
      store.create(onN1.toBuilder().nodeName("n1").build());
    }
    store.create(pod("keep", 2500, 1024).toBuilder().nodeName("n2").build());
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).options(options).watchPods().build();
    assertThat(ca.runOnce().unneededNodes()).containsExactly("n1");
    clock.advance(options.scaleDownUnneededTime());
    return ca;
  }

  private boolean exists(String node) {
    return store.get(Node.class, "", node).isPresent();
  }

  @Test
  void emptyNode_deletedExactlyTheDelayAfterTheTaint() {
    ClusterAutoscaler ca = setUp(null, AutoscalerOptions.defaults());
    assertThat(AutoscalerOptions.defaults().nodeDeleteDelayAfterTaint()).isEqualTo(DELAY);
    Instant tainted = clock.instant();
    LoopResult loop = ca.runOnce();
    assertThat(loop.deletionsStarted()).containsExactly("n1");
    assertThat(loop.deletedNodes()).isEmpty();
    Node n1 = store.require(Node.class, "", "n1");
    assertThat(NodeTaintWrites.has(n1, ClusterAutoscaler.TO_BE_DELETED_TAINT)).isTrue();
    assertThat(n1.spec().unschedulable()).as("cordoned by default, as upstream since 1.34").isTrue();
    assertThat(ca.nextDeletionStep()).contains(tainted.plus(DELAY));

    clock.advance(DELAY.minusMillis(1));
    assertThat(ca.advanceDeletions().deletedNodes()).isEmpty();
    assertThat(exists("n1")).isTrue();

    clock.advance(Duration.ofMillis(1));
    DeletionProgress step = ca.advanceDeletions();
    assertThat(step.deletedNodes()).containsExactly("n1");
    assertThat(step.failedDeletions()).isEmpty();
    assertThat(exists("n1")).isFalse();
    assertThat(ca.nextDeletionStep()).isEmpty();
    assertThat(store.require(NodePool.class, "", "p").status().currentSize()).isEqualTo(1);

    clock.advance(Duration.ofSeconds(5));
    assertThat(ca.runOnce().deletedNodes()).as("reported once, by the step").isEmpty();
  }

  @Test
  void withoutTheStep_theNextLoopTakesIt() {
    ClusterAutoscaler ca = setUp(null, AutoscalerOptions.defaults());
    ca.runOnce();
    clock.advance(Duration.ofSeconds(10));
    assertThat(ca.runOnce().deletedNodes()).containsExactly("n1");
  }

  @Test
  void zeroDelayNoCordon_deletedInTheLoopThatDecidesIt() {
    ClusterAutoscaler ca = setUp(null, AutoscalerOptions.defaults().withNodeDeleteDelayAfterTaint(Duration.ZERO)
        .withCordonNodeBeforeTerminating(false));
    LoopResult loop = ca.runOnce();
    assertThat(loop.deletedNodes()).containsExactly("n1");
    assertThat(ca.nextDeletionStep()).isEmpty();
  }

  @Test
  void drainedNode_podLandingDuringTheDelay_isEvictedNotLost() {
    ClusterAutoscaler ca = setUp(held("w"), AutoscalerOptions.defaults());
    LoopResult loop = ca.runOnce();
    assertThat(loop.deletionsStarted()).containsExactly("n1");
    assertThat(store.require(Pod.class, "default", "w").metadata().deletionTimestamp())
        .as("not evicted before the delay").isNull();
    // a pod that tolerates the taint and the cordon lands on the node while the autoscaler waits
    clock.advance(Duration.ofSeconds(2));
    store.create(held("late").toBuilder().nodeName("n1").build());

    clock.advance(DELAY.minusSeconds(2));
    assertThat(ca.advanceDeletions().deletedNodes()).as("waits for the evicted pods").isEmpty();
    for (String name : new String[] {"w", "late"}) {
      // evicted through the eviction API: marked as a disruption target and deleted gracefully (their finalizer holds
      // them), for their controller to recreate elsewhere; not force-deleted with the node
      Pod p = store.require(Pod.class, "default", name);
      assertThat(p.metadata().deletionTimestamp()).as(name).isNotNull();
      assertThat(p.status().conditions()).as(name).anyMatch(c -> c.type().equals(PodCondition.DISRUPTION_TARGET));
    }
    assertThat(exists("n1")).isTrue();
  }

  /** A pod its finalizer holds once deleted, so that its eviction can be seen. */
  private static Pod held(String name) {
    Pod p = pod(name, 500, 512);
    return p.toBuilder().metadata(p.metadata().toBuilder().finalizers(java.util.List.of("test.fleetkit.io/hold"))
        .build()).build();
  }

  @Test
  void emptyNode_podLandingDuringTheDelay_deletionFailsNodeAndPodStay() {
    ClusterAutoscaler ca = setUp(null, AutoscalerOptions.defaults());
    ca.runOnce();
    clock.advance(Duration.ofSeconds(1));
    store.create(pod("late", 500, 512).toBuilder().nodeName("n1").build());
    clock.advance(DELAY.minusSeconds(1));
    DeletionProgress step = ca.advanceDeletions();

    assertThat(step.deletedNodes()).isEmpty();
    assertThat(step.failedDeletions()).containsOnlyKeys("n1");
    assertThat(step.failedDeletions().get("n1").type()).isEqualTo(NodeDeleteResult.Type.INTERNAL);
    Node n1 = store.require(Node.class, "", "n1");
    assertThat(NodeTaintWrites.has(n1, ClusterAutoscaler.TO_BE_DELETED_TAINT)).isFalse();
    assertThat(n1.spec().unschedulable()).as("uncordoned with the taint").isFalse();
    Pod late = store.require(Pod.class, "default", "late");
    assertThat(late.metadata().deletionTimestamp()).isNull();
    assertThat(late.spec().nodeName()).isEqualTo("n1");
  }
}
