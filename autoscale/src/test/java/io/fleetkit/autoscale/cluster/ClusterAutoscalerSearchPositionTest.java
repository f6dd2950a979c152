package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import org.junit.jupiter.api.Test;

/**
 * The autoscaler's searches go on round-robin from one position for its whole life, shared by scale-up's filter and
 * scale-down's drain simulations ({@link SearchPosition}; cluster-autoscaler's {@code SchedulerPluginRunner} of its
 * one cluster snapshot, {@code simulator/clustersnapshot/predicate/plugin_runner.go} and {@code scheduling_opts.go} at
 * branch cluster-autoscaler-release-1.37): the first search starts at the second node, a later one past the node the
 * previous one found, whether that was in the same step, another step or an earlier loop.
 */
final class ClusterAutoscalerSearchPositionTest {
  private final ManualClock clock = ManualClock.atEpoch2026();

  /** A pool of 4-CPU nodes: n1 with 1000m free, n2 with 500m (both busy enough to stay out of scale-down). */
  private static void twoBusyNodes(ObjectStore store) {
    NodePool p = CaFixtures.pool("p", 4000, 8192, 0, 10);
    store.create(p);
    store.create(CaFixtures.poolNode(p, "n1"));
    store.create(CaFixtures.poolNode(p, "n2"));
    store.create(CaFixtures.pod("fill-1", 3000, 1).withNodeName("n1"));
    store.create(CaFixtures.pod("fill-2", 3500, 1).withNodeName("n2"));
  }

  /** Pending a (500m) then b (1000m): both fit only when a goes to n2 first. */
  private static void pendingAandB(ObjectStore store) {
    store.create(CaFixtures.pod("a", 500, 1));
    store.create(CaFixtures.pod("b", 1000, 1));
  }

  @Test
  void theFirstSearch_startsAtTheSecondNode() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      twoBusyNodes(store);
      pendingAandB(store);
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).build();
      // a to n2 (the search starts at index 1), b from past n2 round to n1: both fit. From the first node, a would
      // take n1's room and b fit nowhere
      assertThat(ca.planScaleUp().unschedulablePods()).isEmpty();
    }
  }

  @Test
  void thePosition_outlivesAScaleUpDecision() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      twoBusyNodes(store);
      store.create(CaFixtures.pod("x", 0, 0));
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).build();
      assertThat(ca.planScaleUp().unschedulablePods()).isEmpty(); // x found n2: the next search starts past it
      store.delete(Pod.class, "default", "x");
      pendingAandB(store);
      // a from n1 (past n2, round), then b from n2: neither n2 nor what n1 has left holds 1000m
      assertThat(ca.planScaleUp().unschedulablePods()).containsExactly("default/b");
      assertThat(ClusterAutoscaler.builder(store).clock(clock).build().planScaleUp().unschedulablePods())
          .as("a new autoscaler starts at the second node again").isEmpty();
    }
  }

  /**
   * A pool of 2-CPU nodes: n1 with a (400m) and b (600m), at the 50 % threshold and so a scale-down candidate; n2 with
   * 600m free and n3 with 400m free, both above it. n1's pods all move only when a goes to n3 first.
   */
  private static void greedyDrain(ObjectStore store) {
    NodePool p = CaFixtures.pool("p", 2000, 8192, 0, 10);
    store.create(p);
    for (String n : new String[] {"n1", "n2", "n3"}) {
      store.create(CaFixtures.poolNode(p, n));
    }
    store.create(CaFixtures.pod("a", 400, 1).withNodeName("n1"));
    store.create(CaFixtures.pod("b", 600, 1).withNodeName("n1"));
    store.create(CaFixtures.pod("fill-2", 1400, 1).withNodeName("n2"));
    store.create(CaFixtures.pod("fill-3", 1600, 1).withNodeName("n3"));
  }

  @Test
  void scaleDown_goesOnFromWhereScaleUpsFilterLeftThePosition() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      greedyDrain(store);
      store.create(CaFixtures.pod("z", 0, 0)); // pending, fits anywhere: the filter places it on n2
      LoopResult r = ClusterAutoscaler.builder(store).clock(clock).build().runOnce();
      assertThat(r.launchedNodes()).isEmpty();
      // the drain's searches start past n2: a to n3, b round to n2
      assertThat(r.unneededNodes()).containsExactly("n1");
    }
  }

  @Test
  void scaleDown_withoutAnEarlierSearch_startsAtTheSecondNode() {
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      greedyDrain(store);
      LoopResult r = ClusterAutoscaler.builder(store).clock(clock).build().runOnce();
      // a to n2 (index 1), b past it to n3, which has 400m: nowhere
      assertThat(r.unneededNodes()).isEmpty();
      assertThat(r.unremovableNodes()).containsEntry("n1", ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
    }
  }
}
