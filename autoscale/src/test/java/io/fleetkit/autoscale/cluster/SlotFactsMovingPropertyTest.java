package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The copies without their node that {@link SlotFacts#moving} keeps per slot equal, object for object, the copies
 * made from the slot's recorded drain at the time of reading ({@link AutoscalerPodInfo#unbound} of each pod of its
 * evict list), through random recorded drains, views refreshed with new or the same views and reads. It fails when a
 * slot keeps the copies of a drain recorded before, or of a view it no longer holds.
 */
final class SlotFactsMovingPropertyTest {
  private static final NodePool POOL = CaFixtures.pool("p", 4000, 8192, 0, 100);

  @Property(tries = 200)
  void moving_equalsTheCopiesOfTheRecordedDrain(@ForAll @IntRange(min = 1, max = 6) int slots,
      @ForAll @IntRange(min = 1, max = 60) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    SlotFacts facts = new SlotFacts(slots);
    Drainability drain = Drainability.withBudgets(List.of(), java.time.Instant.EPOCH);
    List<PodInfo> pool = new ArrayList<>();
    for (int i = 0; i < 12; i++) {
      Pod p = CaFixtures.pod("p" + i, 100, 100);
      pool.add(AutoscalerPodInfo.of(rnd.nextBoolean() ? p.withNodeName("n" + rnd.nextInt(slots)) : p));
    }
    NodeInfo[] views = new NodeInfo[slots];
    for (int s = 0; s < steps; s++) {
      int at = rnd.nextInt(slots);
      switch (rnd.nextInt(3)) {
        case 0 -> { // a new view of the slot's node (the old drain no longer holds), or the same view again
          if (views[at] == null || rnd.nextBoolean()) {
            List<PodInfo> on = new ArrayList<>();
            for (int k = rnd.nextInt(5); k > 0; k--) {
              on.add(pool.get(rnd.nextInt(pool.size())));
            }
            Node node = CaFixtures.poolNode(POOL, "n" + at);
            views[at] = NodeInfos.of(node, on);
          }
          facts.refresh(at, views[at]);
        }
        case 1 -> {
          if (views[at] != null && facts.holds(at, views[at])) {
            facts.drain(at, drain.drain(views[at].pods(), PodInfo::pod, ScaleDownPlanner::rules));
          }
        }
        default -> {
          Drainability.Drain<PodInfo> d = facts.drain(at);
          if (d == null) {
            assertThatThrownBy(() -> facts.moving(at, SlotFactsMovingPropertyTest::unbound))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("slot " + at);
          } else {
            PodInfo[] kept = facts.moving(at, SlotFactsMovingPropertyTest::unbound);
            assertThat(kept).hasSize(d.evict().size());
            for (int i = 0; i < kept.length; i++) {
              assertThat(kept[i]).isSameAs(unbound(d.evict().get(i)));
              assertThat(kept[i].pod().spec().nodeName()).isEmpty();
            }
          }
        }
      }
    }
  }

  private static PodInfo unbound(PodInfo pi) {
    return ((AutoscalerPodInfo) pi).unbound();
  }
}
