package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * An evaluation in which a pod was moved twice (off a candidate by a search onto a node that was then drained too) is
 * not reused: run again, the pod's hint sends it straight to its second node, which leaves room on the first one, and
 * the run decides otherwise. The reusing autoscaler must decide as one that evaluates in every loop.
 *
 * <p>Candidates in name order: {@code n1-a} (pod m), {@code n2-c} (pods c1, c2), {@code n3-b} (pod b); destinations
 * {@code n4-d} (600m free), {@code n5-e} and {@code n6-f}; below each node is called by its letter. Node selectors confine m to b or d, c1 to d or f, c2 to b and pod b to e; d
 * holds m or c1, and b holds c2 only without m. Pod b has a lower priority than the others, so b's drain places it
 * last, on e: the round-robin position after a loop is past e (upstream's runner: past the last node a search found,
 * by its index then). In the loop after m is replaced by a pod without hint (m2), m2 is
 * searched onto b, so c2 finds no place and c is unremovable; b's drain then moves m2 on to d. Run again, m2 goes to
 * d on its hint, c1 then searches f, c2 fits on b, and c is unneeded while b, now holding c2, is not. Reusing the
 * evaluation of that loop would keep b unneeded and c not.
 */
final class ClusterAutoscalerReuseMovedTwiceTest {

  private static Node node(NodePool pool, String name, String... labels) {
    Node.Builder b = CaFixtures.poolNode(pool, name).toBuilder();
    for (String l : labels) {
      b.label(l, "ok");
    }
    return b.build();
  }

  private static Pod on(String node, Pod p, String selector) {
    Pod.Builder b = p.toBuilder().nodeName(node);
    return selector == null ? b.build() : b.nodeSelector(selector, "ok").build();
  }

  private static void populate(ObjectStore s, NodePool pool) {
    s.create(pool);
    s.create(node(pool, "n1-a"));
    s.create(node(pool, "n3-b", "m", "c2"));
    s.create(node(pool, "n2-c"));
    s.create(node(pool, "n4-d", "m", "c1"));
    s.create(node(pool, "n5-e", "b"));
    s.create(node(pool, "n6-f", "c1"));
    s.create(on("n1-a", CaFixtures.pod("m", 600, 64), "m"));
    s.create(on("n3-b", CaFixtures.pod("b", 100, 64).toBuilder().priority(-1).build(), "b"));
    s.create(on("n2-c", CaFixtures.pod("c1", 600, 64), "c1"));
    s.create(on("n2-c", CaFixtures.pod("c2", 3600, 64), "c2"));
    s.create(on("n4-d", CaFixtures.barePod("filler", 3400, 64), null));
  }

  private static ClusterAutoscaler.Builder autoscaler(ObjectStore s, ManualClock clock) {
    AutoscalerOptions o = AutoscalerOptions.defaults().withScaleDownUnneededTime(Duration.ofHours(1))
        .withUnremovableNodeRecheckTimeout(Duration.ZERO); // a node found unremovable is simulated again next loop
    return ClusterAutoscaler.builder(s).clock(clock).options(o)
        .eligibility(n -> Set.of("n1-a", "n2-c", "n3-b").contains(n.name())).candidatesInNameOrder();
  }

  @Test
  void anEvaluationWithAPodMovedTwice_isNotReused() {
    ManualClock clock = ManualClock.atEpoch2026();
    NodePool pool = CaFixtures.pool("p", 4000, 8192, 0, 10);
    try (ObjectStore a = ObjectStore.builder().clock(clock).directDelivery().build();
        ObjectStore r = ObjectStore.builder().clock(clock).directDelivery().build()) {
      populate(a, pool);
      populate(r, pool);
      ClusterAutoscaler reusing = autoscaler(a, clock).build();
      ClusterAutoscaler reference = autoscaler(r, clock).recomputeEveryLoop().build();

      LoopResult first = reusing.runOnce();
      assertThat(reference.runOnce().unneededNodes()).isEqualTo(first.unneededNodes());
      assertThat(first.unneededNodes()).containsExactly("n1-a", "n3-b");
      assertThat(first.unremovableNodes()).containsKey("n2-c");

      // m is replaced by a pod of the same spec (another UID: no hint)
      for (ObjectStore s : List.of(a, r)) {
        s.delete(Pod.class, "default", "m");
        s.create(on("n1-a", CaFixtures.pod("m2", 600, 64), "m"));
      }
      clock.advance(Duration.ofSeconds(10));
      LoopResult second = reusing.runOnce();
      assertThat(reference.runOnce().unneededNodes()).isEqualTo(second.unneededNodes());
      assertThat(second.unneededNodes()).as("m2 moved a -> b -> d; c2 found b full").containsExactly("n1-a", "n3-b");

      clock.advance(Duration.ofSeconds(10));
      LoopResult third = reusing.runOnce();
      LoopResult expected = reference.runOnce();
      assertThat(expected.unneededNodes()).as("run again: m2 straight to d, c1 to f, c2 to b")
          .containsExactly("n1-a", "n2-c");
      assertThat(expected.unremovableNodes()).as("c2 now on b has no place").containsEntry("n3-b",
          ClusterAutoscaler.NO_PLACE_TO_MOVE_PODS);
      assertThat(third.unneededNodes()).isEqualTo(expected.unneededNodes());
      assertThat(third.unremovableNodes()).isEqualTo(expected.unremovableNodes());
    }
  }

  /**
   * The same over random clusters where pods move twice often: nodes labelled {@code x}, {@code y}, both or neither,
   * pods confined to one label or free, every node a candidate in name order and simulated again in every loop (a
   * recheck timeout of 0). Between loops a pod is replaced by one of the same spec without hint, or nothing changes
   * (then the reusing autoscaler reuses its evaluation when it may). Reusing evaluations with searches as well, a few
   * hundred tries find a loop that decides otherwise.
   */
  @Property(tries = 400)
  void reuse_decidesAsEvaluatingEveryLoop(@ForAll @IntRange(min = 3, max = 8) int nodes,
      @ForAll @IntRange(min = 2, max = 16) int pods, @ForAll long seed) {
    ManualClock clock = ManualClock.atEpoch2026();
    NodePool pool = CaFixtures.pool("p", 4000, 8192, 0, 20);
    Random rnd = new Random(seed);
    String[][] nodeLabels = {{}, {"x"}, {"y"}, {"x", "y"}};
    try (ObjectStore a = ObjectStore.builder().clock(clock).directDelivery().build();
        ObjectStore r = ObjectStore.builder().clock(clock).directDelivery().build()) {
      List<ObjectStore> both = List.of(a, r);
      for (int i = 0; i < nodes; i++) {
        Node n = node(pool, "n" + i, nodeLabels[rnd.nextInt(4)]);
        both.forEach(s -> s.create(n));
      }
      both.forEach(s -> s.create(pool));
      for (int i = 0; i < pods; i++) {
        Pod p = randomPod(rnd, "p" + i, nodes);
        both.forEach(s -> s.create(p));
      }
      AutoscalerOptions o = AutoscalerOptions.defaults().withScaleDownUnneededTime(Duration.ofHours(1))
          .withUnremovableNodeRecheckTimeout(Duration.ZERO);
      ClusterAutoscaler reusing = ClusterAutoscaler.builder(a).clock(clock).options(o).eligibility(n -> true)
          .candidatesInNameOrder().build();
      ClusterAutoscaler reference = ClusterAutoscaler.builder(r).clock(clock).options(o).eligibility(n -> true)
          .candidatesInNameOrder().recomputeEveryLoop().build();
      int created = pods;
      for (int loop = 0; loop < 10; loop++) {
        LoopResult ra = reusing.runOnce();
        LoopResult rr = reference.runOnce();
        assertThat(ra.unneededNodes()).as("loop %d", loop).isEqualTo(rr.unneededNodes());
        assertThat(ra.unremovableNodes()).as("loop %d", loop).isEqualTo(rr.unremovableNodes());
        List<Pod> ps = a.list(Pod.class).items();
        if (rnd.nextBoolean() && !ps.isEmpty()) { // a pod replaced: the same spec, another UID, no hint
          Pod old = ps.get(rnd.nextInt(ps.size()));
          Pod next = old.toBuilder().metadata(io.fleetkit.api.meta.ObjectMeta.builder().namespace("default")
              .name("p" + created++).ownerReference(CaFixtures.RS).build()).build();
          both.forEach(s -> {
            s.delete(Pod.class, "default", old.metadata().name());
            s.create(next);
          });
        }
        clock.advance(Duration.ofSeconds(10));
      }
    }
  }

  private static Pod randomPod(Random rnd, String name, int nodes) {
    Pod p = CaFixtures.pod(name, 100 + rnd.nextInt(2400), 64);
    String node = "n" + rnd.nextInt(nodes);
    return on(node, p, switch (rnd.nextInt(3)) {
      case 0 -> "x";
      case 1 -> "y";
      default -> null;
    });
  }
}
