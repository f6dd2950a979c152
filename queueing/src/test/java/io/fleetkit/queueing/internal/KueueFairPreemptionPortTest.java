package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.QueuePreemptionPolicy.ANY;
import static io.fleetkit.queueing.QueuePreemptionPolicy.LOWER_PRIORITY;
import static io.fleetkit.queueing.QueuePreemptionPolicy.NEVER;
import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/preemption/preemption_fair_test.go}, {@code
 * TestFairPreemptions} (commit ff69552e): the same ClusterQueues, Cohorts, admitted workloads and incoming workload
 * (its assignment: cpu in flavor {@code default}, or the case's flavor, in mode Preempt), strategies (default:
 * LessThanOrEqualToFinalShare, then LessThanInitialShare) and the same expected targets with their reasons. {@link
 * KueueHarness} also makes upstream's check that the search leaves every queue's and cohort's usage unchanged.
 *
 * <p>Adapted: names with {@code _} are spelled with {@code -} and capitalised Cohort names in lowercase (Kueue's
 * webhooks refuse both as names).
 */
final class KueueFairPreemptionPortTest {
  private static final List<FairSharingStrategy> DEFAULT = List.of(
      FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE);
  private static final ClusterQueuePreemption BASE =
      new ClusterQueuePreemption(LOWER_PRIORITY, ANY, BorrowWithinCohort.lowerPriority(-3));
  private static final ClusterQueuePreemption LP_ANY = ClusterQueuePreemption.of(LOWER_PRIORITY, ANY);
  private static final ClusterQueuePreemption RECLAIM_ANY = ClusterQueuePreemption.of(NEVER, ANY);

  private static ClusterQueue cq(String name, String cohort, String weight, String cpu, ClusterQueuePreemption p) {
    ClusterQueue.Builder b = ClusterQueue.builder(name).fairSharingWeight(Quantity.parse(weight))
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
    if (cohort != null) {
      b.cohort(cohort);
    }
    if (p != null) {
      b.preemption(p);
    }
    return b.build();
  }

  /** Upstream's {@code baseCQs}: a, b, c of 3 CPUs in cohort {@code all}, and {@code preemptible} of 0. */
  private static List<ClusterQueue> baseCqs() {
    return List.of(cq("a", "all", "1", "3", BASE), cq("b", "all", "1", "3", BASE), cq("c", "all", "1", "3", BASE),
        cq("preemptible", "all", "1", "0", null));
  }

  private static Cohort cohort(String name, String parent, String weight, String cpu) {
    Cohort.Builder b = Cohort.builder(name).fairSharingWeight(Quantity.parse(weight));
    if (parent != null) {
      b.parent(parent);
    }
    if (cpu != null) {
      b.resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
    }
    return b.build();
  }

  private static KueueHarness h(List<ClusterQueue> cqs, Cohort... cohorts) {
    return h(DEFAULT, cqs, cohorts);
  }

  private static KueueHarness h(List<FairSharingStrategy> strategies, List<ClusterQueue> cqs, Cohort... cohorts) {
    return new KueueHarness(List.of("default"), cqs, List.of(cohorts), true, strategies);
  }

  /** Admits a workload of {@code cpu} at {@code priority} in {@code cq}, flavor default. */
  private static void admit(KueueHarness h, String cq, String name, String cpu, int priority) {
    h.admit(wl(name, priority, "cpu", cpu), cq, "cpu", "default");
  }

  /** Admits one-CPU workloads of priority 0. */
  private static void units(KueueHarness h, String cq, String... names) {
    for (String n : names) {
      admit(h, cq, n, "1", 0);
    }
  }

  private static java.util.TreeSet<String> targets(KueueHarness h, String cq, String cpu) {
    return targets(h, cq, cpu, 0);
  }

  private static java.util.TreeSet<String> targets(KueueHarness h, String cq, String cpu, int priority) {
    return h.targets(wl("incoming", priority, "cpu", cpu), cq, "cpu", "default!");
  }

  @Test
  void reclaimNominalFromUserUsingTheMost() {
    KueueHarness h = h(baseCqs());
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3", "b4", "b5");
    units(h, "c", "c1");
    assertThat(targets(h, "c", "1")).containsExactly("b1:InCohortReclamation");
  }

  @Test
  void canReclaimFromQueueUsingLessIfTakingTheLatestWorkloadFromUserUsingTheMostIsNotEnough() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a1", "3", 0);
    admit(h, "a", "a2", "1", 0);
    admit(h, "b", "b1", "2", 0);
    admit(h, "b", "b2", "3", 0);
    // attempts to preempt b1, but it's not enough
    assertThat(targets(h, "c", "3")).containsExactly("a1:InCohortReclamation");
  }

  @Test
  void reclaimBorrowableQuotaFromUserUsingTheMost() {
    KueueHarness h = h(baseCqs());
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3", "b4", "b5");
    units(h, "c", "c1");
    assertThat(targets(h, "a", "1")).containsExactly("b1:InCohortFairSharing");
  }

  @Test
  void preemptOneFromEachCqBorrowing() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a1", "0.5", 0);
    admit(h, "a", "a2", "0.5", 0);
    admit(h, "a", "a3", "3", 0);
    admit(h, "b", "b1", "0.5", 0);
    admit(h, "b", "b2", "0.5", 0);
    admit(h, "b", "b3", "3", 0);
    assertThat(targets(h, "c", "2")).containsExactlyInAnyOrder("a1:InCohortReclamation", "b1:InCohortReclamation");
  }

  @Test
  void cannotPreemptWhenEveryoneUnderNominal() {
    KueueHarness h = h(baseCqs());
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3");
    units(h, "c", "c1", "c2", "c3");
    assertThat(targets(h, "c", "1")).isEmpty();
  }

  @Test
  void cannotPreemptWhenItWouldSwitchTheImbalance() {
    KueueHarness h = h(baseCqs());
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3", "b4", "b5");
    assertThat(targets(h, "a", "2")).isEmpty();
  }

  @Test
  void canPreemptLowerPriorityWorkloadsFromSameCq() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a1-low", "1", -1);
    admit(h, "a", "a2-low", "1", -1);
    units(h, "a", "a3", "a4");
    units(h, "b", "b1", "b2", "b3", "b4", "b5");
    assertThat(targets(h, "a", "2")).containsExactlyInAnyOrder("a1-low:InClusterQueue", "a2-low:InClusterQueue");
  }

  @Test
  void canPreemptACombinationOfSameCqAndHighestUser() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a-low", "1", -1);
    units(h, "a", "a2", "a3");
    units(h, "b", "b1", "b2", "b3", "b4", "b5", "b6");
    assertThat(targets(h, "a", "2")).containsExactlyInAnyOrder("a-low:InClusterQueue", "b1:InCohortFairSharing");
  }

  @Test
  void preemptHugeWorkloadIfThereIsNoOtherOptionAsLongAsTheTargetCqGetsALowerShare() {
    KueueHarness h = h(baseCqs());
    admit(h, "b", "b1", "9", 0);
    assertThat(targets(h, "a", "2")).containsExactly("b1:InCohortReclamation");
  }

  @Test
  void cannotPreemptHugeWorkloadIfTheIncomingIsAlsoHuge() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a1", "2", 0);
    admit(h, "b", "b1", "7", 0);
    assertThat(targets(h, "a", "5")).isEmpty();
  }

  @Test
  void cannotPreempt2SmallerWorkloadsIfTheIncomingIsHuge() {
    KueueHarness h = h(baseCqs());
    admit(h, "b", "b1", "2", 0);
    admit(h, "b", "b2", "2", 0);
    admit(h, "b", "b3", "3", 0);
    assertThat(targets(h, "a", "6")).isEmpty();
  }

  @Test
  void preemptFromTargetAndOthersEvenIfOverNominal() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a1-low", "2", -1);
    admit(h, "a", "a2-low", "1", -1);
    admit(h, "b", "b1", "3", 0);
    admit(h, "b", "b2", "3", 0);
    assertThat(targets(h, "a", "4")).containsExactlyInAnyOrder("a1-low:InClusterQueue", "b1:InCohortFairSharing");
  }

  @Test
  void preferToPreemptWorkloadsThatDoNotMakeTheTargetCqHaveTheBiggestShare() {
    KueueHarness h = h(baseCqs());
    admit(h, "b", "b1", "2", 0);
    admit(h, "b", "b2", "1", 0);
    admit(h, "b", "b3", "2", 0);
    admit(h, "c", "c1", "1", 0);
    // it would have been possible to preempt b1 under rule S2-b, but S2-a was possible first
    assertThat(targets(h, "a", "3.5")).containsExactly("b2:InCohortFairSharing");
  }

  @Test
  void preemptFromDifferentClusterQueuesIfTheEndResultHasASmallerMaxShare() {
    KueueHarness h = h(baseCqs());
    admit(h, "b", "b1", "2", 0);
    admit(h, "b", "b2", "2.5", 0);
    admit(h, "c", "c1", "2", 0);
    admit(h, "c", "c2", "2.5", 0);
    assertThat(targets(h, "a", "3.5")).containsExactlyInAnyOrder("b1:InCohortFairSharing", "c1:InCohortFairSharing");
  }

  @Test
  void scenarioAboveDoesNotFlap() {
    KueueHarness h = h(baseCqs());
    admit(h, "a", "a1", "3.5", 0);
    admit(h, "b", "b2", "2.5", 0);
    admit(h, "c", "c2", "2.5", 0);
    assertThat(targets(h, "b", "2")).isEmpty();
  }

  @Test
  void cannotPreemptIfItWouldMakeTheCandidateCqGoUnderNominalAfterPreemptingOneElement() {
    KueueHarness h = h(baseCqs());
    admit(h, "b", "b1", "3", 0);
    admit(h, "b", "b2", "3", 0);
    admit(h, "c", "c1", "3", 0);
    assertThat(targets(h, "a", "4")).isEmpty();
  }

  // borrowWithinCohort does not affect fair sharing preemption: lower priority workloads go only when their queue's
  // dominant resource share says so
  @Test
  void workloadsUnderPriorityThresholdNotCapriciouslyPreempted() {
    KueueHarness h = h(baseCqs());
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3");
    admit(h, "preemptible", "preemptible1", "1", -3);
    admit(h, "preemptible", "preemptible2", "1", -3);
    admit(h, "preemptible", "preemptible3", "1", -3);
    assertThat(targets(h, "a", "2")).isEmpty();
  }

  @Test
  void preemptLowerPriorityFirstEvenIfBig() {
    KueueHarness h = h(List.of(FairSharingStrategy.LESS_THAN_INITIAL_SHARE), baseCqs());
    admit(h, "a", "a1", "3", 0);
    admit(h, "b", "b-low", "5", 0);
    admit(h, "b", "b-high", "1", 1);
    assertThat(targets(h, "a", "1")).containsExactly("b-low:InCohortFairSharing");
  }

  @Test
  void preemptWorkloadThatDoesNotTransferTheImbalanceEvenIfHighPriority() {
    KueueHarness h = h(List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE), baseCqs());
    admit(h, "a", "a1", "3", 0);
    admit(h, "b", "b-low", "5", 0);
    admit(h, "b", "b-high", "1", 1);
    assertThat(targets(h, "a", "1")).containsExactly("b-high:InCohortFairSharing");
  }

  @Test
  void cqWithHigherWeightCanPreemptMore() {
    KueueHarness h = h(List.of(cq("a", "all", "2", "3", LP_ANY), cq("b", "all", "1", "3", LP_ANY),
        cq("c", "all", "1", "3", LP_ANY)));
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3", "b4", "b5", "b6");
    assertThat(targets(h, "a", "2")).containsExactlyInAnyOrder("b1:InCohortFairSharing", "b2:InCohortFairSharing");
  }

  @Test
  void canPreemptAnythingBorrowingFromCqWith0Weight() {
    KueueHarness h = h(List.of(cq("a", "all", "1", "3", LP_ANY), cq("b", "all", "0", "3", LP_ANY),
        cq("c", "all", "1", "3", LP_ANY)));
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3", "b4", "b5", "b6");
    assertThat(targets(h, "a", "3")).containsExactlyInAnyOrder("b1:InCohortFairSharing", "b2:InCohortFairSharing",
        "b3:InCohortFairSharing");
  }

  @Test
  void cannotPreemptNominalFromCqWith0Weight() {
    KueueHarness h = h(List.of(cq("a", "all", "1", "3", LP_ANY), cq("b", "all", "0", "3", LP_ANY)));
    units(h, "a", "a1", "a2", "a3");
    units(h, "b", "b1", "b2", "b3");
    assertThat(targets(h, "a", "1")).isEmpty();
  }

  @Test
  void cannotPreemptNominalFromCohortWith0Weight() {
    KueueHarness h = h(List.of(cq("left-cq", "root", "1", "0", RECLAIM_ANY),
            cq("right-cq", "right-cohort", "0", "0", RECLAIM_ANY)),
        cohort("right-cohort", "root", "0", "1"));
    units(h, "right-cq", "right-1");
    assertThat(targets(h, "left-cq", "1")).isEmpty();
  }

  @Test
  void canPreemptWithinClusterQueueWhenNoCohort() {
    KueueHarness h = h(List.of(cq("a", null, "1", "1", ClusterQueuePreemption.of(LOWER_PRIORITY, NEVER))));
    units(h, "a", "a1");
    assertThat(targets(h, "a", "1", 1000)).containsExactly("a1:InClusterQueue");
  }

  // Each Cohort provides 5 capacity, each ClusterQueue 1. (usage, quota, subtree quota):
  //                ROOT(20,5,20)
  //             /       |         \
  //       LEFT(5,5,7)  c(5,1,1)   RIGHT(10,5,7)
  //       /       \               /      \
  //     a(0,1,1)    b(5,1,1)   d(5,1,1)    e(5,1,1)
  // Queue a preempts in all of them: a and LEFT weigh 2; e weighs 0.99, for deterministic preemptions.
  @Test
  void hierarchicalPreemption() {
    KueueHarness h = h(List.of(cq("a", "left", "2", "1", RECLAIM_ANY), cq("b", "left", "1", "1", null),
            cq("c", "root", "1", "1", null), cq("d", "right", "1", "1", null), cq("e", "right", "0.99", "1", null)),
        cohort("root", null, "1", "5"), cohort("left", "root", "2", "5"), cohort("right", "root", "1", "5"));
    for (String q : List.of("b", "c", "d", "e")) {
      for (int i = 1; i <= 5; i++) {
        admit(h, q, q + i, "1", i);
      }
    }
    assertThat(targets(h, "a", "5")).containsExactlyInAnyOrder("b1:InCohortFairSharing", "b2:InCohortFairSharing",
        "c1:InCohortFairSharing", "c2:InCohortFairSharing", "e1:InCohortFairSharing");
  }

  // Though b borrows, its Cohort does not, and therefore it cannot be preempted.
  //             ROOT
  //           /      \
  //       a(3,5,5)   RIGHT(1,1,1)
  //                        \
  //                         b(1,0,0)
  // An incoming workload of 5 to a must preempt a's own, despite a's high weight and RIGHT/b's low one.
  @Test
  void borrowingCqInNonBorrowingCohortIsProtected() {
    KueueHarness h = h(List.of(cq("a", "root", "10", "5", LP_ANY), cq("b", "right", "0.1", "0", null)),
        cohort("root", null, "1", null), cohort("right", "root", "0.1", "1"));
    admit(h, "a", "a1", "1", -1);
    admit(h, "a", "a2", "1", -1);
    admit(h, "a", "a3", "1", -1);
    admit(h, "b", "b1", "1", -1);
    assertThat(targets(h, "a", "5")).containsExactlyInAnyOrder("a1:InClusterQueue", "a2:InClusterQueue",
        "a3:InClusterQueue");
  }

  // Preempting the small workload would bring RIGHT to a share of 0, and the higher priority one cannot be
  // considered: an incoming workload of 4 to a must preempt a's own.
  //             ROOT
  //           /      \
  //       a(3,5,5)   RIGHT(4,3,3)
  //                        \
  //                         b(4,0,0)
  @Test
  void forcedToPreemptWithinClusterQueueBecauseBorrowingWorkloadTooImportant() {
    KueueHarness h = h(List.of(cq("a", "root", "10", "5", ClusterQueuePreemption.of(LOWER_PRIORITY, LOWER_PRIORITY)),
            cq("b", "right", "0.1", "0", null)),
        cohort("root", null, "1", null), cohort("right", "root", "0.1", "3"));
    admit(h, "a", "a1", "1", -1);
    admit(h, "a", "a2", "1", -1);
    admit(h, "a", "a3", "1", -1);
    admit(h, "b", "b1", "4", 100);
    assertThat(targets(h, "a", "4")).containsExactlyInAnyOrder("a1:InClusterQueue", "a2:InClusterQueue",
        "a3:InClusterQueue");
  }

  //                      ROOT
  //                    /   |   \
  //                   A    B    C
  //                   |    |    |
  //                   AA   BB   CC
  //                   |    |    |
  //                  AAA  BBB  CCC
  //                   |    |    |
  //                   a    b   CCCC
  // Queue a wants capacity, queue b uses it, Cohort CCCC provides it. A weighs more than B (the almost lowest common
  // ancestors compared), so the preemption is possible.
  @Test
  void deepPreemption() {
    KueueHarness h = h(List.of(cq("a", "aaa", "1", "0", RECLAIM_ANY), cq("b", "bbb", "1", "0", null)),
        cohort("root", null, "1", null), cohort("a", "root", "1.01", null), cohort("aa", "a", "1", null),
        cohort("aaa", "aa", "1", null), cohort("b", "root", "0.99", null), cohort("bb", "b", "1", null),
        cohort("bbb", "bb", "1", null), cohort("c", "root", "1", null), cohort("cc", "c", "1", null),
        cohort("ccc", "cc", "1", null), cohort("cccc", "ccc", "1", "1"));
    units(h, "b", "b1");
    assertThat(targets(h, "a", "1")).containsExactly("b1:InCohortFairSharing");
  }

  @Test
  void cqWithZeroWeightCanReclaimNominalQuota() {
    KueueHarness h = h(List.of(cq("a", "root", "0.0", "1", RECLAIM_ANY), cq("b", "root", "1.0", "0", null)));
    units(h, "b", "b1");
    assertThat(targets(h, "a", "1")).containsExactly("b1:InCohortReclamation");
  }

  @Test
  void cohortWithZeroWeightCanReclaimNominalQuota() {
    KueueHarness h = h(List.of(cq("a", "a", "0.0", "0", RECLAIM_ANY), cq("b", "root", "1.0", "0", null)),
        cohort("a", "root", "0.0", "1"));
    units(h, "b", "b1");
    assertThat(targets(h, "a", "1")).containsExactly("b1:InCohortFairSharing");
  }

  // a: 3 CPUs nominal on premium, 0 on cheap; b: 0 on premium, 6 on cheap. a uses 2 premium (within nominal) and 5
  // cheap (borrowed): a high share; b uses 1 premium, borrowed. a wants 1 premium, within its nominal quota: it may
  // preempt whatever the shares say.
  @Test
  void nominalFirstWorkloadFittingWithinNominalCanPreemptDespiteHighAggregateDrs() {
    KueueHarness h = new KueueHarness(List.of("premium", "cheap"), List.of(
        ClusterQueue.builder("a").cohort("all").preemption(RECLAIM_ANY)
            .flavorFungibility(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
                FlavorFungibility.WhenCanPreempt.PREEMPT))
            .resourceGroup(FlavorQuotas.of("premium", FlavorResourceQuota.of("cpu", "3")),
                FlavorQuotas.of("cheap", FlavorResourceQuota.of("cpu", "0"))).build(),
        ClusterQueue.builder("b").cohort("all")
            .resourceGroup(FlavorQuotas.of("premium", FlavorResourceQuota.of("cpu", "0")),
                FlavorQuotas.of("cheap", FlavorResourceQuota.of("cpu", "6"))).build()), List.of(), true, DEFAULT);
    for (String n : List.of("a-prem1", "a-prem2")) {
      h.admit(wl(n, 0, "cpu", "1"), "a", "cpu", "premium");
    }
    for (String n : List.of("a-cheap1", "a-cheap2", "a-cheap3", "a-cheap4", "a-cheap5")) {
      h.admit(wl(n, 0, "cpu", "1"), "a", "cpu", "cheap");
    }
    h.admit(wl("b-prem1", 0, "cpu", "1"), "b", "cpu", "premium");
    assertThat(h.targets(wl("incoming", 0, "cpu", "1"), "a", "cpu", "premium!"))
        .containsExactly("b-prem1:InCohortReclamation");
  }

  // The preemptor has weight 0 and borrows: its share is infinite, the target's finite: neither strategy can pass.
  @Test
  void zeroWeightBorrowingPreemptorCannotPreemptFromABorrowingCqWithANonZeroWeight() {
    KueueHarness h = h(List.of(cq("a", "all", "0", "1", RECLAIM_ANY), cq("b", "all", "1", "1", null)));
    units(h, "a", "a1");
    units(h, "b", "b1", "b2");
    assertThat(targets(h, "a", "1")).isEmpty();
  }

  // Both have weight 0 and borrow: both shares are infinite, and compare by their unweighted ratios.
  @Test
  void zeroWeightBorrowingPreemptorCanPreemptFromABorrowingCqWhichAlsoHasZeroWeight() {
    KueueHarness h = h(List.of(cq("a", "all", "0", "1", RECLAIM_ANY), cq("b", "all", "0", "0", null)),
        cohort("all", null, "1", "3"));
    units(h, "b", "b1", "b2", "b3");
    assertThat(targets(h, "a", "2")).containsExactly("b1:InCohortFairSharing");
  }

  @Test
  void nonZeroWeightBorrowingPreemptorPreemptsFromABorrowingCq() {
    KueueHarness h = h(List.of(cq("a", "all", "1", "1", RECLAIM_ANY), cq("b", "all", "1", "0", null)),
        cohort("all", null, "1", "3"));
    units(h, "b", "b1", "b2", "b3");
    assertThat(targets(h, "a", "2")).containsExactly("b1:InCohortFairSharing");
  }

  //	ROOT ── A (weight 0, 1 CPU) ── p (weight 1, 2 CPU, preemptor)
  //	     │                      └─ y (weight 1, 2 CPU)
  //	     └─ x (weight 1, 1 CPU)
  // The preemptor's almost lowest common ancestor is p for target y, and A for target x. A borrows with weight 0, so
  // no candidate of x passes the first strategy; they stay for the second: once y1 is gone A no longer borrows, and a
  // candidate of x wins.
  @Test
  void candidatesSkippedByTheFirstStrategyAreStillAvailableToTheSecondStrategy() {
    KueueHarness h = h(List.of(cq("p", "a", "1", "2", RECLAIM_ANY), cq("y", "a", "1", "2", null),
            cq("x", "root", "1", "1", null)),
        cohort("a", "root", "0", "1"));
    admit(h, "p", "p1", "2", 0);
    admit(h, "y", "y1", "2", 0);
    admit(h, "y", "y2", "2", 0);
    units(h, "x", "x1", "x2");
    assertThat(targets(h, "p", "1")).containsExactlyInAnyOrder("y1:InCohortFairSharing", "x1:InCohortFairSharing");
  }

  /**
   * Kueue's {@code TestFairPreemptionSkipsUnsatisfiableTournament} (same file): with a preemptor of weight 0 (its
   * share infinite, the target queue skipped by the first strategy) or 1, nothing is preempted and the search ends.
   * Upstream also counts the strategy evaluations in its logs, which the engine does not write.
   */
  @Test
  void fairPreemptionSkipsUnsatisfiableTournament() {
    for (String weight : List.of("0", "1")) {
      KueueHarness h = h(List.of(cq("a", "all", weight, "1", RECLAIM_ANY), cq("b", "all", "1", "1", null)));
      units(h, "a", "a1");
      units(h, "b", "b1", "b2");
      assertThat(targets(h, "a", "1")).as("preemptor weight %s", weight).isEmpty();
    }
  }
}
