package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetOrdinals;
import io.fleetkit.api.apps.StatefulSetPersistentVolumeClaimRetentionPolicy;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.reconcile.GarbageCollector;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.util.List;
import java.util.stream.IntStream;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * For any replica count and start ordinal, and any change of both, the StatefulSet controller ends with pods whose
 * ordinals are exactly {@code [start, start + replicas)}, all ready; with {@code whenScaled: Delete} and the garbage
 * collector running, the claims left are exactly those of the live ordinals, with Retain every claim ever made stays.
 */
final class StatefulSetOrdinalsPropertyTest {

  private static List<Integer> range(int start, int replicas) {
    return IntStream.range(start, start + replicas).boxed().toList();
  }

  @Property(tries = 40)
  void anyReplicasAndStart_podOrdinalsExactlyTheRange(
      @ForAll @IntRange(min = 0, max = 4) int replicas, @ForAll @IntRange(min = 0, max = 30) int start,
      @ForAll @IntRange(min = 0, max = 4) int replicas2, @ForAll @IntRange(min = 0, max = 30) int start2,
      @ForAll boolean parallel, @ForAll boolean deleteOnScaleDown) {
    try (StatefulSetHarness h = new StatefulSetHarness();
         GarbageCollector gc = GarbageCollector.builder(h.store).watch(StatefulSet.class).watch(Pod.class)
             .watch(PersistentVolumeClaim.class).watch(io.fleetkit.api.apps.ControllerRevision.class).stepping()
             .clock(h.clock).build()) {
      gc.start().join();
      StatefulSet set = StatefulSetHarness.newStatefulSet(replicas);
      PersistentVolumeClaimRetentionPolicyType whenScaled = deleteOnScaleDown
          ? PersistentVolumeClaimRetentionPolicyType.Delete : PersistentVolumeClaimRetentionPolicyType.Retain;
      set = set.withSpec(set.spec().withOrdinals(StatefulSetOrdinals.startingAt(start))
          .withPersistentVolumeClaimRetentionPolicy(StatefulSetPersistentVolumeClaimRetentionPolicy.of(
              PersistentVolumeClaimRetentionPolicyType.Retain, whenScaled)));
      h.store.create(parallel ? StatefulSetHarness.burst(set) : set);
      converge(h, gc);
      assertThat(h.pods()).extracting(StatefulSetPods::ordinal).isEqualTo(range(start, replicas));

      h.update(s -> s.withReplicas(replicas2).withOrdinals(StatefulSetOrdinals.startingAt(start2)));
      converge(h, gc);
      assertThat(h.pods()).extracting(StatefulSetPods::ordinal).isEqualTo(range(start2, replicas2));
      assertThat(h.pods()).allMatch(StatefulSetPods::isRunningAndReady);
      assertThat(h.set().status().readyReplicas()).isEqualTo(replicas2);
      if (deleteOnScaleDown) {
        assertThat(h.claims()).extracting(c -> c.metadata().name()).containsExactlyInAnyOrderElementsOf(
            range(start2, replicas2).stream().map(o -> "datadir-foo-" + o).toList());
      } else {
        assertThat(h.claims()).as("Retain keeps every claim made")
            .hasSizeGreaterThanOrEqualTo(replicas2).hasSizeLessThanOrEqualTo(replicas + replicas2);
        assertThat(h.claims()).allMatch(c -> c.metadata().ownerReferences().isEmpty());
      }
    }
  }

  /** Controller, kubelet and collector until the pods are the set's range and ready, the claims settled. */
  private static void converge(StatefulSetHarness h, GarbageCollector gc) {
    for (int i = 0; i < 500; i++) {
      int work = h.controller.runUntilIdle() + gc.runUntilIdle();
      boolean moved = h.advancePods();
      StatefulSet s = h.set();
      List<Integer> want = range(s.spec().startOrdinal(), s.spec().replicas());
      if (work == 0 && !moved && h.pods().stream().map(StatefulSetPods::ordinal).toList().equals(want)
          && s.status().readyReplicas() == s.spec().replicas()) {
        return;
      }
      if (work == 0 && !moved) {
        // only a stale-claim wait can leave nothing to do: let its retry come due
        h.clock.advance(io.fleetkit.reconcile.controllers.internal.StatefulSetReconciler.STALE_CLAIM_RETRY);
      }
    }
    throw new AssertionError("did not converge: " + h.pods().stream().map(p -> p.metadata().name()).toList());
  }
}
