package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.policy.PodDisruptionBudgetSpec;
import io.fleetkit.api.policy.PodDisruptionBudgetStatus;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link Drainability#drainAfter} (a node's drain extended by the pods a simulation moved onto it) equals
 * {@link Drainability#drain} of the whole pod list: the same pods to evict in the same order, or the same blocking
 * pod and reason; with budgets, or with a list that does not start with the prefix's pods, it computes from scratch.
 */
final class DrainAfterPropertyTest {
  /** The rules' time; a fifth of the pods were deleted up to 2 min before it (30 s grace: some long-terminating). */
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final OwnerReference RS = new OwnerReference("apps/v1", "ReplicaSet", "rs", "rs-uid", true, true);
  private static final OwnerReference DS = new OwnerReference("apps/v1", "DaemonSet", "ds", "ds-uid", true, true);

  @Property(tries = 300)
  void drainAfter_equalsTheDrainOfTheWholeList(@ForAll @IntRange(min = 0, max = 8) int prefixSize,
      @ForAll @IntRange(min = 0, max = 8) int added, @ForAll boolean budgets, @ForAll boolean replaceOne,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Pod> prefix = new ArrayList<>();
    for (int i = 0; i < prefixSize; i++) {
      prefix.add(pod(rnd, "p" + i));
    }
    List<Pod> items = new ArrayList<>(prefix);
    for (int i = 0; i < added; i++) {
      items.add(pod(rnd, "m" + i));
    }
    if (replaceOne && !items.isEmpty()) { // the list no longer starts with the prefix's objects (or, past it, may)
      int at = rnd.nextInt(items.size());
      items.set(at, pod(rnd, "r" + at));
    }
    List<PodDisruptionBudget> pdbs = budgets ? List.of(budget(rnd.nextInt(3))) : List.of();
    Drainability rules = Drainability.withBudgets(pdbs, NOW);
    Drainability.Drain<Pod> before = rules.drain(prefix, p -> p, Drainability.PodRules::of);
    Drainability.Drain<Pod> got = rules.drainAfter(before, prefix, items, p -> p, Drainability.PodRules::of);
    Drainability.Drain<Pod> expected = Drainability.withBudgets(pdbs, NOW).drain(items, p -> p,
        Drainability.PodRules::of);
    assertThat(got.evict()).containsExactlyElementsOf(expected.evict());
    assertThat(got.blockingPod()).isEqualTo(expected.blockingPod());
    assertThat(got.reason()).isEqualTo(expected.reason());
  }

  /**
   * The scale-down evaluation's shortcut: pods on the evict lists of drains made without budgets, moved (as their
   * copies without a node) onto a node, are evicted again, so {@link Drainability#drainPlus} of the node's drain and
   * the moved pods is that drain's evict list followed by them (unless the node's own drain is blocked).
   */
  @Property(tries = 300)
  void drainPlus_ofPodsEvictedBefore_evictsThemAgain(@ForAll @IntRange(min = 0, max = 8) int own,
      @ForAll @IntRange(min = 1, max = 4) int sources, @ForAll long seed) {
    Random rnd = new Random(seed);
    Drainability rules = Drainability.withBudgets(List.of(), NOW);
    List<io.fleetkit.api.framework.PodInfo> moved = new ArrayList<>();
    for (int s = 0; s < sources; s++) {
      List<io.fleetkit.api.framework.PodInfo> on = new ArrayList<>();
      for (int i = rnd.nextInt(6); i > 0; i--) {
        on.add(AutoscalerPodInfo.of(pod(rnd, "s" + s + "-" + i)));
      }
      Drainability.Drain<io.fleetkit.api.framework.PodInfo> d = rules.drain(on,
          io.fleetkit.api.framework.PodInfo::pod, ScaleDownPlanner::rules);
      for (io.fleetkit.api.framework.PodInfo pi : d.evict()) {
        if (rnd.nextBoolean()) {
          moved.add(((AutoscalerPodInfo) pi).unbound());
        }
      }
    }
    java.util.Collections.shuffle(moved, rnd);
    List<io.fleetkit.api.framework.PodInfo> mine = new ArrayList<>();
    for (int i = 0; i < own; i++) {
      mine.add(AutoscalerPodInfo.of(pod(rnd, "p" + i)));
    }
    Drainability.Drain<io.fleetkit.api.framework.PodInfo> before = rules.drain(mine,
        io.fleetkit.api.framework.PodInfo::pod, ScaleDownPlanner::rules);
    Drainability.Drain<io.fleetkit.api.framework.PodInfo> plus = rules.drainPlus(before, moved,
        io.fleetkit.api.framework.PodInfo::pod, ScaleDownPlanner::rules);
    List<io.fleetkit.api.framework.PodInfo> all = new ArrayList<>(mine);
    all.addAll(moved);
    Drainability.Drain<io.fleetkit.api.framework.PodInfo> whole = rules.drain(all,
        io.fleetkit.api.framework.PodInfo::pod, ScaleDownPlanner::rules);
    if (before.blocked()) {
      assertThat(plus.reason()).isEqualTo(before.reason());
      assertThat(whole.reason()).isEqualTo(before.reason());
      return;
    }
    List<io.fleetkit.api.framework.PodInfo> expected = new ArrayList<>(before.evict());
    expected.addAll(moved);
    assertThat(plus.blocked()).isFalse();
    assertThat(plus.evict()).containsExactlyElementsOf(expected);
    assertThat(whole.blocked()).isFalse();
    assertThat(whole.evict()).containsExactlyElementsOf(expected);
  }

  /** A pod with a random mix of what the rules read: owner, annotations, namespace, phase, local volumes, deletion. */
  private static Pod pod(Random rnd, String name) {
    Pod.Builder b = Pod.builder().name(name).namespace(rnd.nextInt(5) == 0 ? Drainability.KUBE_SYSTEM : "default")
        .nodeName("n1").label("app", rnd.nextBoolean() ? "web" : "db")
        .container("c", "pause", ResourceList.ofCpuMemory(100, 1 << 20));
    switch (rnd.nextInt(6)) {
      case 0 -> { } // no controller: blocks
      case 1 -> b.ownerReference(DS);
      default -> b.ownerReference(RS);
    }
    switch (rnd.nextInt(8)) {
      case 0 -> b.annotation(Drainability.SAFE_TO_EVICT, "true");
      case 1 -> b.annotation(Drainability.SAFE_TO_EVICT, "false");
      case 2 -> b.annotation(Drainability.MIRROR_ANNOTATION, "x");
      default -> { }
    }
    if (rnd.nextInt(6) == 0) {
      b.volume(Volume.emptyDir("scratch"));
    }
    if (rnd.nextInt(8) == 0) {
      b.phase(PodPhase.Succeeded);
    }
    Pod p = b.build();
    if (rnd.nextInt(5) == 0) {
      p = p.withMetadata(p.metadata().toBuilder().deletionTimestamp(NOW.minusSeconds(rnd.nextInt(120))).build());
    }
    return p;
  }

  private static PodDisruptionBudget budget(int allowed) {
    return PodDisruptionBudget.of(ObjectMeta.of("default", "web"),
        PodDisruptionBudgetSpec.minAvailable(LabelSelector.of(Map.of("app", "web")), IntOrPercent.of(1)))
        .withStatus(new PodDisruptionBudgetStatus(1, Map.of(), allowed, 2, 1, 2, List.of()));
  }
}
