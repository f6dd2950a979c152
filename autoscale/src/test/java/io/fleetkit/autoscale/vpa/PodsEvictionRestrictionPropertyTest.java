package io.fleetkit.autoscale.vpa;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Invariant of the updater's group restriction over a pass that disrupts pods in any order, each by eviction or by
 * in-place resize: both kinds share one allowance, which is {@code running - (configured - tolerance)} pods, or one
 * when all configured replicas run and the tolerance truncates to 0; Pending pods may always be evicted and use none
 * of it; a group below {@code minReplicas} gives nothing.
 */
final class PodsEvictionRestrictionPropertyTest {
  @Property(tries = 500)
  void pass_anyOrderOfEvictionsAndResizes_grantsExactlyTheAllowance(
      @ForAll @IntRange(min = 0, max = 20) int configured, @ForAll @IntRange(min = 0, max = 25) int running,
      @ForAll @IntRange(min = 0, max = 4) int pending, @ForAll @IntRange(min = 0, max = 6) int minReplicas,
      @ForAll @DoubleRange(min = 0, max = 1) double fraction,
      @ForAll @Size(max = 40) List<@IntRange(min = 0, max = 2) Integer> ops) {
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < running + pending; i++) {
      pods.add(Pod.builder().namespace("ns").name("p" + i).container("app", "nginx:1", ResourceList.EMPTY)
          .status(PodStatus.of(i < running ? PodPhase.Running : PodPhase.Pending)).build());
    }
    PodsEvictionRestriction r = PodsEvictionRestriction.of(configured, pods, minReplicas, fraction);
    boolean below = running + pending < minReplicas;
    int tolerance = (int) (configured * fraction);
    int allowance = below ? 0 : Math.max(Math.max(running - (configured - tolerance), 0),
        running > 0 && running == configured && tolerance == 0 ? 1 : 0);

    int granted = 0;
    int next = 0;
    int nextPending = running;
    for (int op : ops) {
      if (op == 2) { // a Pending pod's eviction
        if (nextPending < pods.size()) {
          Pod p = pods.get(nextPending++);
          assertThat(r.canEvict(p)).isEqualTo(!below);
          assertThat(r.canInPlaceUpdate(p)).isFalse();
          if (!below) {
            r.recordEviction(p);
          }
        }
        continue;
      }
      if (next >= running) {
        continue;
      }
      Pod p = pods.get(next);
      boolean evict = op == 0;
      boolean can = evict ? r.canEvict(p) : r.canInPlaceUpdate(p);
      assertThat(r.canEvict(p)).isEqualTo(r.canInPlaceUpdate(p));
      assertThat(can).as("pod %d of %d, %d granted of %d", next, running, granted, allowance)
          .isEqualTo(granted < allowance);
      if (can) {
        if (evict) {
          r.recordEviction(p);
        } else {
          r.recordInPlaceUpdate(p);
        }
        granted++;
        next++;
      } else {
        next = running; // the rest of the pass is refused too
      }
    }
    assertThat(granted).isLessThanOrEqualTo(allowance);
    assertThat(r.belowMinReplicas()).isEqualTo(below);
  }
}
