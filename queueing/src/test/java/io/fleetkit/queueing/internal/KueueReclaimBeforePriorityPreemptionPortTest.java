package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.Workload;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go} (commit ff69552e),
 * {@code TestReclaimBeforePriorityPreemption}, all 6 cases: queue {@code test-clusterqueue} (10 compute and 10 gpu
 * in each of the flavors uno, due, tre; LowerPriority within the queue and when reclaiming) and
 * {@code other-clusterqueue} (no quota) in one cohort, the case's usage added to each, and Kueue's test oracle (the
 * case's answer per flavor-resource, else Preempt). Checked as upstream: the representative mode and the flavor per
 * resource.
 */
final class KueueReclaimBeforePriorityPreemptionPortTest {
  private static final String TEST = "test-clusterqueue";
  private static final String OTHER = "other-clusterqueue";

  private static FlavorQuotas quotas(String flavor, String each) {
    return FlavorQuotas.of(flavor, FlavorResourceQuota.of("compute", each), FlavorResourceQuota.of("gpu", each));
  }

  private static KueueHarness harness(FlavorFungibility fungibility) {
    ClusterQueue test = ClusterQueue.builder(TEST).cohort("cohort")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY,
            QueuePreemptionPolicy.LOWER_PRIORITY))
        .flavorFungibility(fungibility)
        .resourceGroup(quotas("uno", "10"), quotas("due", "10"), quotas("tre", "10"))
        .build();
    ClusterQueue other = ClusterQueue.builder(OTHER).cohort("cohort")
        .resourceGroup(quotas("uno", "0"), quotas("due", "0"), quotas("tre", "0"))
        .build();
    return new KueueHarness(List.of("uno", "due", "tre"), List.of(test, other), false);
  }

  private static final FlavorFungibility TRY_NEXT = new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
      FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR);
  /** Kueue's {@code WhenCanPreempt: MayStopSearch} (the deprecated name of Preempt). */
  private static final FlavorFungibility STOP = new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
      FlavorFungibility.WhenCanPreempt.PREEMPT);

  /** One unit of each {@code flavor/resource} used by {@code cq}. */
  private static void use(KueueHarness h, String cq, String... flavorResources) {
    FlavorResources idx = h.scheduler.index();
    for (String fr : flavorResources) {
      String[] p = fr.split("/");
      h.scheduler.queue(cq).addUsage(new int[] {idx.of(p[0], p[1])}, new long[] {1000}, 1);
    }
  }

  /**
   * Assigns {@code wl} in the test queue with Kueue's test oracle: {@code answers} maps {@code flavor/resource} to
   * {@link Assignment#PREEMPT} or {@link Assignment#RECLAIM}; every other one answers Preempt.
   */
  private static Assignment assign(KueueHarness h, Workload wl, Map<String, Integer> answers) {
    FlavorResources idx = h.scheduler.index();
    Map<Integer, Integer> byFr = new HashMap<>();
    answers.forEach((k, v) -> {
      String[] p = k.split("/");
      byFr.put(idx.of(p[0], p[1]), v);
    });
    FlavorAssigner assigner = new FlavorAssigner(idx, Map.of(), false,
        (w, q, fr, v) -> new FlavorAssigner.Simulation(byFr.getOrDefault(fr, Assignment.PREEMPT), 0));
    return assigner.assign(wl, h.scheduler.queue(TEST));
  }

  private static Workload gpu() {
    return KueueHarness.wl("wl", 0, "gpu", "10");
  }

  @Test
  void selectFirstFlavorWhichFits() {
    KueueHarness h = harness(TRY_NEXT);
    use(h, TEST, "uno/gpu");
    use(h, OTHER, "due/gpu");
    Assignment a = assign(h, gpu(), Map.of());
    assertThat(a.mode()).isEqualTo(Assignment.FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("gpu", "tre"));
  }

  @Test
  void selectFirstFlavorWhereGpuReclamationIsPossible() {
    KueueHarness h = harness(TRY_NEXT);
    use(h, TEST, "uno/gpu");
    use(h, OTHER, "due/gpu", "tre/gpu");
    Assignment a = assign(h, gpu(), Map.of("uno/gpu", Assignment.PREEMPT, "due/gpu", Assignment.RECLAIM));
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("gpu", "due"));
  }

  @Test
  void selectFirstFlavorWhenFlavorFungibilityIsDisabled() {
    KueueHarness h = harness(STOP);
    use(h, TEST, "uno/gpu");
    use(h, OTHER, "due/gpu", "tre/gpu");
    Assignment a = assign(h, gpu(), Map.of());
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("gpu", "uno"));
  }

  // FleetKit has only the current name of MayStopSearch, Preempt: the same case as the one before
  @Test
  void selectFirstFlavorWhenFlavorFungibilityIsDisabledUsingDeprecatedWhenCanPreemptMayStopSearch() {
    KueueHarness h = harness(STOP);
    use(h, TEST, "uno/gpu");
    use(h, OTHER, "due/gpu", "tre/gpu");
    Assignment a = assign(h, gpu(), Map.of());
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("gpu", "uno"));
  }

  @Test
  void selectFirstFlavorWherePriorityBasedPreemptionIsPossible() {
    KueueHarness h = harness(TRY_NEXT);
    use(h, TEST, "uno/gpu", "due/gpu", "tre/gpu");
    Assignment a = assign(h, gpu(), Map.of());
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("gpu", "uno"));
  }

  @Test
  void selectSecondFlavorWhereGpuReclamationIsPossibleAsComputeFits() {
    KueueHarness h = harness(TRY_NEXT);
    use(h, TEST, "uno/gpu", "uno/compute", "due/compute");
    use(h, OTHER, "due/gpu", "tre/gpu");
    Assignment a = assign(h, KueueHarness.wl("wl", 0, "gpu", "10", "compute", "10"), Map.of(
        "uno/gpu", Assignment.PREEMPT, "due/gpu", Assignment.RECLAIM, "tre/gpu", Assignment.RECLAIM));
    assertThat(a.mode()).isEqualTo(Assignment.PREEMPT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyInAnyOrderEntriesOf(Map.of("gpu", "tre", "compute", "tre"));
  }
}
