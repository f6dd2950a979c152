package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetUpdateStrategy;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.reconcile.controllers.internal.StatefulSetPods;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * For any replicas, partition, {@code maxUnavailable} (a count or a percentage) and pod management, and the kubelet
 * moving pods forward in any order: no sync of a rolling update takes a replica down while {@code maxUnavailable} of
 * them are down already, none takes down more than {@code maxUnavailable} less those, and the update ends with the
 * ordinals at or above the partition on the new image and the others on the old one, all ready.
 */
final class StatefulSetMaxUnavailablePropertyTest {

  private static int unavailable(StatefulSetHarness h, int replicas) {
    int down = replicas - h.pods().size(); // a missing replica is unavailable
    for (Pod p : h.pods()) {
      if (StatefulSetPods.isUnavailable(p, 0, h.clock.now())) {
        down++;
      }
    }
    return down;
  }

  private static long terminating(StatefulSetHarness h) {
    return h.pods().stream().filter(StatefulSetPods::isTerminating).count();
  }

  /** One kubelet step on one pod picked by {@code random}: a deleted pod goes, Pending runs, Running gets ready. */
  private static boolean step(StatefulSetHarness h, Random random) {
    List<Pod> movable = h.pods().stream().filter(p -> StatefulSetPods.isTerminating(p)
        || p.status().phase() == PodPhase.Pending || !p.isReady()).toList();
    if (movable.isEmpty()) {
      return false;
    }
    Pod p = movable.get(random.nextInt(movable.size()));
    if (StatefulSetPods.isTerminating(p)) {
      h.store.delete(Pod.class, "default", p.metadata().name(), io.fleetkit.api.store.DeleteOptions.gracePeriod(0));
    } else if (p.status().phase() == PodPhase.Pending) {
      Sim.run(h.store, p, "node-" + StatefulSetPods.ordinal(p));
    } else {
      Sim.ready(h.store, h.clock, p, p.spec().nodeName());
    }
    return true;
  }

  @Property(tries = 60)
  void rollingUpdate_neverExceedsMaxUnavailable(@ForAll @IntRange(min = 1, max = 8) int replicas,
      @ForAll @IntRange(min = 0, max = 8) int partition, @ForAll @IntRange(min = 1, max = 8) int max,
      @ForAll boolean percent, @ForAll boolean parallel, @ForAll long seed) {
    IntOrPercent maxUnavailable = percent ? IntOrPercent.ofPercent(max * 12) : IntOrPercent.of(max);
    int limit = Math.max(1, maxUnavailable.scaledValue(replicas, false));
    StatefulSet set = StatefulSetHarness.newStatefulSet(replicas);
    set = StatefulSetHarness.withStrategy(set, new StatefulSetUpdateStrategy(
        StatefulSetUpdateStrategyType.RollingUpdate, new RollingUpdateStatefulSetStrategy(partition, maxUnavailable)));
    Random random = new Random(seed);
    try (StatefulSetHarness h = new StatefulSetHarness()) {
      h.store.create(parallel ? StatefulSetHarness.burst(set) : set);
      h.scaleUp(StatefulSetHarness::burstInvariants);
      h.update(s -> StatefulSetHarness.withImage(s, "foo"));
      for (int i = 0; i < 2000; i++) {
        int downBefore = unavailable(h, replicas);
        long deletingBefore = terminating(h);
        h.controller.runUntilIdle();
        long deleted = terminating(h) - deletingBefore;
        if (deleted > 0) {
          assertThat(downBefore).as("a sync deleted %d pods while %d of %d replicas were down (maxUnavailable %s)",
              deleted, downBefore, replicas, maxUnavailable).isLessThan(limit);
          assertThat(downBefore + deleted).as("down after the sync's deletions").isLessThanOrEqualTo(limit);
        }
        if (!step(h, random)) {
          h.controller.runUntilIdle();
          if (terminating(h) == 0 && !h.pods().isEmpty() && h.pods().stream()
              .allMatch(p -> p.isReady() && p.status().phase() == PodPhase.Running)
              && h.pods().size() == replicas) {
            break;
          }
        }
      }
      List<String> expected = java.util.stream.IntStream.range(0, replicas)
          .mapToObj(o -> o >= partition ? "foo" : StatefulSetHarness.ORIGINAL_IMAGE).toList();
      assertThat(h.images()).isEqualTo(expected);
      assertThat(h.pods()).allMatch(StatefulSetPods::isRunningAndReady);
    }
  }
}
