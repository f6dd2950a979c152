package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorFungibility.Preference;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/flavorassigner/flavorassigner_test.go} (commit ff69552e):
 * {@code TestIsPreferred}, all 10 cases (Kueue's {@code granularMode} is a mode and a borrowing level here; a case
 * without a preference is Kueue's default, BorrowingOverPreemption), and {@code TestHierarchical}, all 3 cases: the
 * cohort tree {@code one -> two -> three} with 4 cpu of the flavor of the same name in each, {@code test-clusterqueue}
 * in cohort {@code one} and {@code other-clusterqueue} (no quota) in {@code two}, the case's usage added to each, and
 * Kueue's test oracle (the case's {@code simulationResult}, else Preempt with borrowing level 0); checked as upstream:
 * the representative mode and the flavor per resource.
 */
final class KueueFlavorPreferencePortTest {
  private static final int FIT = Assignment.FIT;
  private static final int PREEMPT = Assignment.PREEMPT;
  private static final int NO_CANDIDATES = Assignment.NO_CANDIDATES;
  private static final int NO_FIT = Assignment.NO_FIT;

  private static boolean isPreferred(int a, int aBorrow, int b, int bBorrow, @Nullable Preference preference) {
    FlavorFungibility config = new FlavorFungibility(FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR,
        FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR, preference);
    return FlavorAssigner.isPreferred(a, aBorrow, b, bBorrow, config.effectivePreference());
  }

  // ---- TestIsPreferred

  @Test
  void featureGateDisabledPrioritisesPreemption() {
    assertThat(isPreferred(FIT, 0, PREEMPT, 0, null)).isTrue();
  }

  @Test
  void explicitBorrowingOverPreemptionPrioritisesBorrowingDistance() {
    assertThat(isPreferred(PREEMPT, 1, FIT, 2, Preference.BORROWING_OVER_PREEMPTION)).isFalse();
  }

  @Test
  void explicitPreemptionOverBorrowingPrioritisesLowerPreemption() {
    assertThat(isPreferred(PREEMPT, 1, FIT, 2, Preference.PREEMPTION_OVER_BORROWING)).isTrue();
  }

  @Test
  void explicitPreemptionOverBorrowingBreaksBorrowingTiesWithPreemption() {
    assertThat(isPreferred(PREEMPT, 1, FIT, 1, Preference.PREEMPTION_OVER_BORROWING)).isFalse();
  }

  @Test
  void explicitPreemptionOverBorrowingRejectsNoCandidateFlavorBeforeBorrowingComparison() {
    assertThat(isPreferred(NO_CANDIDATES, 1, FIT, 2, Preference.PREEMPTION_OVER_BORROWING)).isFalse();
  }

  @Test
  void explicitPreemptionOverBorrowingPrefersFitOverShallowerBorrowingNoCandidateFlavor() {
    assertThat(isPreferred(FIT, 2, NO_CANDIDATES, 1, Preference.PREEMPTION_OVER_BORROWING)).isTrue();
  }

  @Test
  void noCandidateFlavorRemainsPreferableToNoFitFlavor() {
    assertThat(isPreferred(NO_CANDIDATES, 1, NO_FIT, 0, null)).isTrue();
  }

  @Test
  void noFitFlavorRemainsWorseThanNoCandidateFlavor() {
    assertThat(isPreferred(NO_FIT, 0, NO_CANDIDATES, 1, null)).isFalse();
  }

  @Test
  void noCandidateFlavorsRetainBorrowingPreference() {
    assertThat(isPreferred(NO_CANDIDATES, 1, NO_CANDIDATES, 2, Preference.PREEMPTION_OVER_BORROWING)).isTrue();
  }

  @Test
  void noCandidateFlavorsRetainBorrowingPreferenceInReverse() {
    assertThat(isPreferred(NO_CANDIDATES, 2, NO_CANDIDATES, 1, Preference.PREEMPTION_OVER_BORROWING)).isFalse();
  }

  // ---- TestHierarchical

  private static final String TEST = "test-clusterqueue";
  private static final String OTHER = "other-clusterqueue";

  private static FlavorQuotas[] zeroQuotas() {
    return new FlavorQuotas[] {
        FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "0")),
        FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "0")),
        FlavorQuotas.of("three", FlavorResourceQuota.of("cpu", "0"))};
  }

  /** Upstream's set-up with the test queue's {@code flavors} and {@code fungibility} (upstream's default: TryNext). */
  private static KueueHarness hierarchy(FlavorQuotas[] flavors, FlavorFungibility fungibility) {
    List<Cohort> cohorts = List.of(
        Cohort.builder("three").resourceGroup(FlavorQuotas.of("three", FlavorResourceQuota.of("cpu", "4"))).build(),
        Cohort.builder("two").parent("three")
            .resourceGroup(FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "4"))).build(),
        Cohort.builder("one").parent("two")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "4"))).build());
    ClusterQueue test = ClusterQueue.builder(TEST).cohort("one")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY,
            QueuePreemptionPolicy.LOWER_PRIORITY))
        .resourceGroup(flavors)
        .flavorFungibility(fungibility)
        .build();
    ClusterQueue other = ClusterQueue.builder(OTHER).cohort("two").resourceGroup(zeroQuotas()).build();
    return new KueueHarness(List.of("one", "two", "three"), List.of(test, other), cohorts, false);
  }

  private static void use(KueueHarness h, String cq, String flavor, long milli) {
    h.scheduler.queue(cq).addUsage(new int[] {h.scheduler.index().of(flavor, "cpu")}, new long[] {milli}, 1);
  }

  /** Assigns 4 cpu in the test queue with Kueue's test oracle answering {@code results} (flavor to answer). */
  private static Assignment assign(KueueHarness h, Map<String, FlavorAssigner.Simulation> results) {
    FlavorResources idx = h.scheduler.index();
    Map<Integer, FlavorAssigner.Simulation> byFr = new HashMap<>();
    results.forEach((flavor, sim) -> byFr.put(idx.of(flavor, "cpu"), sim));
    FlavorAssigner assigner = new FlavorAssigner(idx, Map.of(), false,
        (w, q, fr, v) -> byFr.getOrDefault(fr, new FlavorAssigner.Simulation(PREEMPT, 0)));
    return assigner.assign(KueueHarness.wl("wl", 0, "cpu", "4"), h.scheduler.queue(TEST));
  }

  /** Upstream's queue-level fungibility: {@code WhenCanPreempt: TryNextFlavor}, WhenCanBorrow unset (MayStopSearch). */
  private static final FlavorFungibility TRY_NEXT_PREEMPT = FlavorFungibility.DEFAULT;

  @Test
  void selectTheTopFlavor() {
    KueueHarness h = hierarchy(zeroQuotas(), TRY_NEXT_PREEMPT);
    use(h, TEST, "one", 4_000);
    use(h, OTHER, "two", 4_000);
    Assignment a = assign(h, Map.of());
    assertThat(a.mode()).isEqualTo(FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "three"));
  }

  @Test
  void selectTheFirstFlavorWhichFits() {
    KueueHarness h = hierarchy(zeroQuotas(), TRY_NEXT_PREEMPT);
    use(h, TEST, "one", 4_000);
    Assignment a = assign(h, Map.of());
    assertThat(a.mode()).isEqualTo(FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "two"));
  }

  @Test
  void selectDeeperBorrowingFlavorThatFitsWhenShallowerBorrowingFlavorHasNoPreemptionCandidates() {
    FlavorQuotas[] flavors = {
        FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "4", "0")),
        FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "0")),
        FlavorQuotas.of("three", FlavorResourceQuota.of("cpu", "0"))};
    KueueHarness h = hierarchy(flavors, FlavorFungibility.tryEveryFlavor(Preference.PREEMPTION_OVER_BORROWING));
    use(h, TEST, "one", 4_000);
    Assignment a = assign(h, Map.of("one", new FlavorAssigner.Simulation(NO_CANDIDATES, 1)));
    assertThat(a.mode()).isEqualTo(FIT);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "two"));
  }
}
