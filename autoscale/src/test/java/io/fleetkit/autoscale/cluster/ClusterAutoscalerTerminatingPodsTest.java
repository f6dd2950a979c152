package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.pool;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Scale-down with pods being deleted (upstream's utilization and long-terminating drainability rules, read through
 * the autoscaler's loop): such a pod counts, and must move, until its grace period plus 30 s has passed; then it counts
 * as gone. Between loops in which nothing but the time changed, the autoscaler must notice the pod crossing that
 * instant (its kept evaluation and per-node facts do not hold across it).
 */
final class ClusterAutoscalerTerminatingPodsTest {
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  private ClusterAutoscaler ca() {
    return ClusterAutoscaler.builder(store).clock(clock).seed(42).build();
  }

  /** Deletes {@code name}, held by a finalizer: it stays on its node, terminating, from now on. */
  private void deleteHeld(String name) {
    Pod p = store.require(Pod.class, "default", name);
    store.update(p.withMetadata(p.metadata().toBuilder().finalizer("fleetkit.io/hold").build()));
    store.delete(Pod.class, "default", name);
  }

  @Test
  void utilization_countsATerminatingPod_untilItIsLongTerminating_thoughNothingElseChanges() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    store.create(pod("busy", 3000, 1024).toBuilder().nodeName("n1").terminationGracePeriodSeconds(30).build());
    store.create(pod("other", 3000, 1024).toBuilder().nodeName("n2").build());
    ClusterAutoscaler ca = ca();
    assertThat(ca.runOnce().unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    deleteHeld("busy");
    clock.advance(Duration.ofSeconds(10));
    LoopResult terminating = ca.runOnce();
    assertThat(terminating.unremovableNodes()).as("deleted 10 s ago: still counted")
        .containsEntry("n1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    // the graceful deletion set deletionTimestamp to the deletion plus the 30 s grace period; long-terminating once
    // past deletionTimestamp + grace + 30 s: deleted 90 s ago, not more
    clock.advance(Duration.ofSeconds(80));
    assertThat(ca.runOnce().unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NOT_UNDERUTILIZED);
    clock.advance(Duration.ofSeconds(1)); // only the time changed
    LoopResult gone = ca.runOnce();
    assertThat(gone.unneededNodes()).as("long-terminating: the node counts as empty").containsExactly("n1");
    assertThat(gone.unremovableNodes()).containsEntry("n2", ClusterAutoscaler.NOT_UNDERUTILIZED)
        .doesNotContainKey("n1");
  }

  @Test
  void drain_aTerminatingPodMustMove_untilItIsLongTerminating() {
    NodePool p = pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(poolNode(p, "n1"));
    store.create(poolNode(p, "n2"));
    store.create(pod("leaving", 1000, 1024).toBuilder().nodeName("n1").terminationGracePeriodSeconds(120).build());
    store.create(pod("full", 3500, 1024).toBuilder().nodeName("n2").build());
    ClusterAutoscaler ca = ca();
    deleteHeld("leaving");
    clock.advance(Duration.ofSeconds(10));
    LoopResult first = ca.runOnce();
    assertThat(first.unremovableNodes()).as("the terminating pod must move and fits nowhere")
        .containsEntry("n1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
    // past the recheck timeout (5 min) the pod, deleted 5 min 10 s ago with 120 s grace, is long-terminating
    clock.advance(Duration.ofMinutes(5));
    LoopResult later = ca.runOnce();
    assertThat(later.unneededNodes()).containsExactly("n1");
  }
}
