package io.fleetkit.reconcile.controllers;

import static io.fleetkit.reconcile.controllers.StatefulSetHarness.burst;
import static io.fleetkit.reconcile.controllers.StatefulSetHarness.newStatefulSet;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.core.Pod;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.ordinals.start}. The first test is kubernetes
 * {@code pkg/controller/statefulset/stateful_set_control_test.go} TestStatefulSetControlWithStartOrdinal
 * (CreatesPodsWithStartOrdinal; the version read through the code index, with RecreatesPVCForPendingPod; its commit
 * was not recorded there); the others are FleetKit's: a moved start condemns the pods outside the new range,
 * scale-down removes the highest ordinal, and the partition counts from the start ordinal (as upstream's
 * {@code newVersionedStatefulSetPod}).
 */
final class StatefulSetStartOrdinalTest {

  private static StatefulSet withStart(StatefulSet set, int start) {
    return set.withSpec(set.spec().withOrdinals(StatefulSetOrdinals.startingAt(start)));
  }

  private static List<String> names(StatefulSetHarness h) {
    return h.pods().stream().map(p -> p.metadata().name()).toList();
  }

  // upstream: CreatesPodsWithStartOrdinal (newStatefulSet(3), ordinals.start 2, emptyInvariants)
  @Test
  void createsPodsWithStartOrdinal_threeReplicasFromTwo_ordinalsTwoToFour() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(withStart(newStatefulSet(3), 2));
      h.scaleUp(x -> { });
      StatefulSet s = h.set();
      assertThat(s.status().replicas()).isEqualTo(3);
      assertThat(s.status().readyReplicas()).isEqualTo(3);
      assertThat(s.status().updatedReplicas()).isEqualTo(3);
      List<Pod> pods = h.pods();
      for (int i = 0; i < pods.size(); i++) {
        assertThat(StatefulSetPods.ordinal(pods.get(i))).isEqualTo(2 + i);
      }
      assertThat(pods).hasSize(3);
      // FleetKit: the monotonic invariant (counted from the start) and the claims follow the ordinals
      StatefulSetHarness.monotonicInvariants(h);
      assertThat(h.claims()).extracting(c -> c.metadata().name())
          .containsExactlyInAnyOrder("datadir-foo-2", "datadir-foo-3", "datadir-foo-4");
      assertThat(pods.get(0).metadata().labels()).containsEntry(WorkloadLabels.POD_INDEX, "2");
    }
  }

  @Test
  void orderedReady_startOrdinal_createsFromStartOneAtATime() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(withStart(newStatefulSet(2), 5));
      h.controller.runUntilIdle();
      assertThat(names(h)).containsExactly("foo-5");
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      assertThat(names(h)).containsExactly("foo-5", "foo-6");
    }
  }

  @Test
  void startMoved_zeroToTwo_podsBelowCondemnedNewOnesCreated() {
    for (boolean parallel : List.of(false, true)) {
      try (StatefulSetHarness h = new StatefulSetHarness()) {
        StatefulSet set = newStatefulSet(3);
        h.store.create(parallel ? burst(set) : set);
        h.scaleUp(StatefulSetHarness::burstInvariants);
        assertThat(names(h)).containsExactly("foo-0", "foo-1", "foo-2");
        h.update(s -> s.withOrdinals(StatefulSetOrdinals.startingAt(2)));
        h.scaleUp(StatefulSetHarness::burstInvariants);
        assertThat(names(h)).as("parallel=%s", parallel).containsExactly("foo-2", "foo-3", "foo-4");
        assertThat(h.set().status().replicas()).isEqualTo(3);
        assertThat(h.claims()).as("claims retained by default").hasSize(5);
      }
    }
  }

  @Test
  void scaleDown_startOrdinal_highestOrdinalGoesFirst() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(withStart(newStatefulSet(3), 1));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      h.scale(1);
      h.scaleDown(StatefulSetHarness::monotonicInvariants);
      assertThat(names(h)).containsExactly("foo-1");
    }
  }

  @Test
  void partition_countsFromStartOrdinal() {
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(StatefulSetHarness.withPartition(withStart(newStatefulSet(4), 10), 2));
      h.scaleUp(StatefulSetHarness::monotonicInvariants);
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      // replicas[i] is ordinal 10 + i: the pods at index >= 2 (ordinals 12, 13) take the update
      assertThat(names(h)).containsExactly("foo-10", "foo-11", "foo-12", "foo-13");
      assertThat(h.images()).containsExactly("nginx", "nginx", "foo", "foo");
      // a pod below the partition, deleted, comes back at the current revision
      h.store.delete(Pod.class, "default", "foo-11");
      h.updateUntilSettled(StatefulSetHarness::updateInvariants);
      assertThat(h.images()).containsExactly("nginx", "nginx", "foo", "foo");
    }
  }
}
