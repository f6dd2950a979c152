package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of the long-terminating rule ({@link TerminatingPods}) where scale-down reads it: a node's
 * {@link NodeUtilization} never counts a long-terminating pod and only falls as time passes, and the utilization and
 * drain {@link SlotFacts} keep for a view across times always equal those computed afresh at the current time.
 */
final class TerminatingPodsPropertiesTest {
  private static final NodePool POOL = CaFixtures.pool("p", 4000, 8192, 0, 100);
  private static final OwnerReference DS = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);
  private static final Instant BASE = Instant.parse("2026-01-01T00:00:00Z");

  /** A pod on {@code node}: a ReplicaSet's, a DaemonSet's, a mirror or a bare one; a third deleted around BASE. */
  private static Pod pod(Random rnd, String name, String node) {
    Pod p = CaFixtures.pod(name, 100 + rnd.nextInt(900), 64 + rnd.nextInt(1024)).toBuilder().nodeName(node)
        .terminationGracePeriodSeconds(new long[] {0, 30, 120}[rnd.nextInt(3)]).build();
    switch (rnd.nextInt(5)) {
      case 0 -> p = Pod.builder().metadata(p.metadata().toBuilder().ownerReferences(List.of(DS)).build())
          .spec(p.spec()).build();
      case 1 -> p = p.toBuilder().annotation(Drainability.MIRROR_ANNOTATION, "x").build();
      case 2 -> p = CaFixtures.barePod(name, 100, 64).toBuilder().nodeName(node).build();
      default -> { }
    }
    if (rnd.nextInt(3) == 0) {
      p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(BASE.minusSeconds(rnd.nextInt(300))).build());
    }
    return p;
  }

  private static NodeInfo view(Random rnd, String node, int pods) {
    List<PodInfo> on = new ArrayList<>();
    for (int i = 0; i < pods; i++) {
      on.add(AutoscalerPodInfo.of(pod(rnd, node + "-p" + i, node)));
    }
    return NodeInfos.of(CaFixtures.poolNode(POOL, node), on);
  }

  @Property(tries = 300)
  void utilization_neverCountsALongTerminatingPod_andFallsAsTimePasses(@ForAll long seed,
      @ForAll @IntRange(min = 0, max = 12) int pods, @ForAll boolean skipDaemonSets, @ForAll boolean skipMirrors,
      @ForAll @IntRange(min = 0, max = 500) int s1, @ForAll @IntRange(min = 0, max = 500) int s2) {
    Random rnd = new Random(seed);
    NodeInfo view = view(rnd, "n", pods);
    Instant t1 = BASE.minusSeconds(100).plusSeconds(Math.min(s1, s2));
    Instant t2 = BASE.minusSeconds(100).plusSeconds(Math.max(s1, s2));
    NodeUtilization at1 = NodeUtilization.of(view, skipDaemonSets, skipMirrors, t1);
    // the same as the view without the pods counted as gone at t1 (those not taken out of the allocatable first)
    List<PodInfo> kept = new ArrayList<>();
    for (PodInfo p : view.pods()) {
      boolean skipped = (skipDaemonSets && TemplateNodes.isDaemonSetPod(p.pod()))
          || (skipMirrors && TemplateNodes.isMirrorPod(p.pod()));
      if (skipped || !TerminatingPods.isLongTerminating(p.pod(), t1)) {
        kept.add(p);
      }
    }
    assertThat(at1).isEqualTo(NodeUtilization.noneTerminating(NodeInfos.of(view.node(), kept), skipDaemonSets,
        skipMirrors));
    NodeUtilization at2 = NodeUtilization.of(view, skipDaemonSets, skipMirrors, t2);
    assertThat(at2.cpu()).isLessThanOrEqualTo(at1.cpu());
    assertThat(at2.memory()).isLessThanOrEqualTo(at1.memory());
    assertThat(at2.value()).isLessThanOrEqualTo(at1.value());
  }

  @Property(tries = 200)
  void slotFacts_keptAcrossTimes_equalFactsTakenAfresh(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 5) int slots, @ForAll @IntRange(min = 1, max = 60) int steps) {
    Random rnd = new Random(seed);
    boolean skipDaemonSets = rnd.nextBoolean();
    boolean skipMirrors = rnd.nextBoolean();
    SlotFacts facts = new SlotFacts(slots, skipDaemonSets, skipMirrors);
    NodeInfo[] views = new NodeInfo[slots];
    Instant now = BASE.minusSeconds(150);
    for (int s = 0; s < steps; s++) {
      // time mostly moves on, sometimes back (a clock set back, or a test's)
      now = now.plusSeconds(rnd.nextInt(10) == 0 ? -rnd.nextInt(200) : rnd.nextInt(60));
      facts.at(now, true);
      Drainability rules = Drainability.withBudgets(List.of(), now);
      int at = rnd.nextInt(slots);
      if (views[at] == null || rnd.nextInt(4) == 0) {
        views[at] = view(rnd, "n" + at, rnd.nextInt(6));
      }
      boolean held = facts.holds(at, views[at]);
      Drainability.Drain<PodInfo> kept = held ? facts.drain(at) : null;
      facts.refresh(at, views[at]);
      NodeUtilization fresh = NodeUtilization.of(views[at], skipDaemonSets, skipMirrors, now);
      assertThat(facts.utilization(at)).as("step %d", s).isEqualTo(fresh.value());
      Drainability.Drain<PodInfo> d = rules.drain(views[at].pods(), PodInfo::pod, ScaleDownPlanner::rules);
      if (kept != null) {
        assertThat(List.of(kept.evict(), kept.blockingPod(), kept.reason())).as("step %d, kept drain", s)
            .isEqualTo(List.of(d.evict(), d.blockingPod(), d.reason()));
      } else if (rnd.nextBoolean()) {
        facts.drain(at, d);
      }
    }
  }
}
