package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.QueuePreemptionPolicy.ANY;
import static io.fleetkit.queueing.QueuePreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY;
import static io.fleetkit.queueing.QueuePreemptionPolicy.LOWER_PRIORITY;
import static io.fleetkit.queueing.QueuePreemptionPolicy.NEVER;
import static io.fleetkit.queueing.internal.KueueHarness.NOW;
import static io.fleetkit.queueing.internal.KueueHarness.req;
import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.Workload;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/preemption/preemption_test.go}, {@code TestPreemption} (commit
 * 014d9490c7f3ca68120582ab72cbfec7c3194aa1): the same ClusterQueues ({@code defaultClusterQueues}; names with
 * {@code _} or capitals are spelled as DNS subdomains, e.g. {@code a-standard}, {@code prevent-starvation}), admitted
 * workloads, incoming workload and assignment, and the same expected targets with their reasons. Each test is named
 * after its upstream case: all 36 of upstream's cases. {@link KueueHarness} also makes upstream's secondary checks
 * (usage unchanged by the search, no workload targeted twice).
 */
final class KueuePreemptionPortTest {
  private static final BorrowWithinCohort BWC0 = BorrowWithinCohort.lowerPriority(0);

  private static ClusterQueuePreemption p(QueuePreemptionPolicy within, QueuePreemptionPolicy reclaim) {
    return ClusterQueuePreemption.of(within, reclaim);
  }

  private static ClusterQueuePreemption p(QueuePreemptionPolicy within, QueuePreemptionPolicy reclaim, BorrowWithinCohort b) {
    return new ClusterQueuePreemption(within, reclaim, b);
  }

  private static FlavorQuotas cpuMem(String flavor, String cpu, String cpuBorrow, String mem, String memBorrow) {
    return FlavorQuotas.of(flavor, FlavorResourceQuota.of("cpu", cpu, cpuBorrow), FlavorResourceQuota.of("memory", mem, memBorrow));
  }

  private static List<ClusterQueue> defaultClusterQueues() {
    return List.of(
        ClusterQueue.builder("standalone")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "6")))
            .resourceGroup(FlavorQuotas.of("alpha", FlavorResourceQuota.of("memory", "3Gi")),
                FlavorQuotas.of("beta", FlavorResourceQuota.of("memory", "3Gi")))
            .preemption(p(LOWER_PRIORITY, NEVER)).build(),
        ClusterQueue.builder("c1").cohort("cohort")
            .resourceGroup(cpuMem("default", "6", "6", "3Gi", "3Gi"))
            .preemption(p(LOWER_PRIORITY, LOWER_PRIORITY)).build(),
        ClusterQueue.builder("c2").cohort("cohort")
            .resourceGroup(cpuMem("default", "6", "6", "3Gi", "3Gi"))
            .preemption(p(NEVER, ANY)).build(),
        ClusterQueue.builder("d1").cohort("cohort-no-limits")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "6"), FlavorResourceQuota.of("memory", "3Gi")))
            .preemption(p(LOWER_PRIORITY, LOWER_PRIORITY)).build(),
        ClusterQueue.builder("d2").cohort("cohort-no-limits")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "6"), FlavorResourceQuota.of("memory", "3Gi")))
            .preemption(p(NEVER, ANY)).build(),
        ClusterQueue.builder("l1").cohort("legion")
            .resourceGroup(cpuMem("default", "6", "12", "3Gi", "6Gi"))
            .preemption(p(LOWER_PRIORITY, LOWER_PRIORITY)).build(),
        ClusterQueue.builder("prevent-starvation")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "6")))
            .preemption(p(LOWER_OR_NEWER_EQUAL_PRIORITY, NEVER)).build(),
        ClusterQueue.builder("a-standard").cohort("with-shared-cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1", "12")))
            .preemption(p(NEVER, LOWER_PRIORITY, BWC0)).build(),
        ClusterQueue.builder("b-standard").cohort("with-shared-cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1", "12")))
            .preemption(p(LOWER_PRIORITY, ANY, BWC0)).build(),
        ClusterQueue.builder("a-best-effort").cohort("with-shared-cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1", "12")))
            .preemption(p(NEVER, LOWER_PRIORITY, BWC0)).build(),
        ClusterQueue.builder("b-best-effort").cohort("with-shared-cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "0", "13")))
            .preemption(p(NEVER, LOWER_PRIORITY, BWC0)).build(),
        ClusterQueue.builder("shared").cohort("with-shared-cq")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10"))).build(),
        ClusterQueue.builder("lend1").cohort("cohort-lend")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "6").withLendingLimit("4")))
            .preemption(p(LOWER_PRIORITY, LOWER_PRIORITY)).build(),
        ClusterQueue.builder("lend2").cohort("cohort-lend")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "6").withLendingLimit("2")))
            .preemption(p(LOWER_PRIORITY, LOWER_PRIORITY)).build(),
        ClusterQueue.builder("a").cohort("cohort-three")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "2")))
            .preemption(p(LOWER_PRIORITY, ANY)).build(),
        ClusterQueue.builder("b").cohort("cohort-three")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "2")))
            .build(),
        ClusterQueue.builder("c").cohort("cohort-three")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2"), FlavorResourceQuota.of("memory", "2")))
            .build());
  }

  private static KueueHarness h() {
    return new KueueHarness(List.of("default", "alpha", "beta"), defaultClusterQueues(), false);
  }

  @Test
  void preemptLowestPriority() {
    KueueHarness h = h().admit(wl("low", -1, "cpu", "2"), "standalone", "cpu", "default")
        .admit(wl("mid", 0, "cpu", "2"), "standalone", "cpu", "default")
        .admit(wl("high", 1, "cpu", "2"), "standalone", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "2"), "standalone", "cpu", "default!"))
        .containsExactly("low:InClusterQueue");
  }

  @Test
  void preemptMultiple() {
    KueueHarness h = h().admit(wl("low", -1, "cpu", "2"), "standalone", "cpu", "default")
        .admit(wl("mid", 0, "cpu", "2"), "standalone", "cpu", "default")
        .admit(wl("high", 1, "cpu", "2"), "standalone", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "3"), "standalone", "cpu", "default!"))
        .containsExactly("low:InClusterQueue", "mid:InClusterQueue");
  }

  @Test
  void noPreemptionForLowPriority() {
    KueueHarness h = h().admit(wl("low", -1, "cpu", "3"), "standalone", "cpu", "default")
        .admit(wl("mid", 0, "cpu", "3"), "standalone", "cpu", "default");
    assertThat(h.targets(wl("in", -1, "cpu", "1"), "standalone", "cpu", "default!")).isEmpty();
  }

  @Test
  void notEnoughLowPriorityWorkloads() {
    KueueHarness h = h().admit(wl("low", -1, "cpu", "3"), "standalone", "cpu", "default")
        .admit(wl("mid", 0, "cpu", "3"), "standalone", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "4"), "standalone", "cpu", "default!")).isEmpty();
  }

  @Test
  void someFreeQuotaPreemptLowPriority() {
    KueueHarness h = h().admit(wl("low", -1, "cpu", "1"), "standalone", "cpu", "default")
        .admit(wl("mid", 0, "cpu", "1"), "standalone", "cpu", "default")
        .admit(wl("high", 1, "cpu", "3"), "standalone", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "2"), "standalone", "cpu", "default!"))
        .containsExactly("low:InClusterQueue");
  }

  @Test
  void minimalSetExcludesLowPriority() {
    KueueHarness h = h().admit(wl("low", -1, "cpu", "1"), "standalone", "cpu", "default")
        .admit(wl("mid", 0, "cpu", "2"), "standalone", "cpu", "default")
        .admit(wl("high", 1, "cpu", "3"), "standalone", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "2"), "standalone", "cpu", "default!"))
        .containsExactly("mid:InClusterQueue");
  }

  @Test
  void onlyPreemptWorkloadsUsingTheChosenFlavor() {
    KueueHarness h = h().admit(wl("low", -1, "memory", "2Gi"), "standalone", "memory", "alpha")
        .admit(wl("mid", 0, "memory", "1Gi"), "standalone", "memory", "beta")
        .admit(wl("high", 1, "memory", "1Gi"), "standalone", "memory", "beta");
    assertThat(h.targets(wl("in", 1, "cpu", "1", "memory", "2Gi"), "standalone",
        "cpu", "default", "memory", "beta!"))
        .containsExactly("mid:InClusterQueue");
  }

  @Test
  void reclaimQuotaFromBorrower() {
    KueueHarness h = h().admit(wl("c1-low", -1, "cpu", "3"), "c1", "cpu", "default")
        .admit(wl("c2-mid", 0, "cpu", "3"), "c2", "cpu", "default")
        .admit(wl("c2-high", 1, "cpu", "6"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "3"), "c1", "cpu", "default!"))
        .containsExactly("c2-mid:InCohortReclamation");
  }

  @Test
  void reclaimQuotaIfWorkloadRequestsZeroResourcesForAResourceAtNominalQuota() {
    KueueHarness h = h()
        .admit(wl("c1-low", -1, "cpu", "3", "memory", "3Gi"), "c1", "cpu", "default", "memory", "default")
        .admit(wl("c2-mid", 0, "cpu", "3"), "c2", "cpu", "default")
        .admit(wl("c2-high", 1, "cpu", "6"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "3", "memory", "0"), "c1", "cpu", "default!", "memory", "default"))
        .containsExactly("c2-mid:InCohortReclamation");
  }

  @Test
  void noWorkloadsBorrowing() {
    KueueHarness h = h().admit(wl("c1-high", 1, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c2-low-1", -1, "cpu", "4"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4"), "c1", "cpu", "default!")).isEmpty();
  }

  @Test
  void notEnoughWorkloadsBorrowing() {
    KueueHarness h = h().admit(wl("c1-high", 1, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c2-low-1", -1, "cpu", "4"), "c2", "cpu", "default")
        .admit(wl("c2-low-2", -1, "cpu", "4"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4"), "c1", "cpu", "default!")).isEmpty();
  }

  @Test
  void preemptingLocallyAndBorrowingOtherResourcesInCohortWithoutCohortCandidates() {
    KueueHarness h = h().admit(wl("c1-low", -1, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c2-low-1", -1, "cpu", "4"), "c2", "cpu", "default")
        .admit(wl("c2-high-2", 1, "cpu", "4"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4", "memory", "5Gi"), "c1", "cpu", "default!", "memory", "default!"))
        .containsExactly("c1-low:InClusterQueue");
  }

  @Test
  void preemptingLocallyAndBorrowingSameResourceInCohort() {
    KueueHarness h = h().admit(wl("c1-med", 0, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c1-low", -1, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c2-low-1", -1, "cpu", "4"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4"), "c1", "cpu", "default!"))
        .containsExactly("c1-low:InClusterQueue");
  }

  @Test
  void preemptingLocallyAndBorrowingSameResourceInCohortNoBorrowingLimitInTheCohort() {
    KueueHarness h = h().admit(wl("d1-med", 0, "cpu", "4"), "d1", "cpu", "default")
        .admit(wl("d1-low", -1, "cpu", "4"), "d1", "cpu", "default")
        .admit(wl("d2-low-1", -1, "cpu", "4"), "d2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4"), "d1", "cpu", "default!"))
        .containsExactly("d1-low:InClusterQueue");
  }

  @Test
  void preemptingLocallyAndBorrowingOtherResourcesInCohortWithCohortCandidates() {
    KueueHarness h = h().admit(wl("c1-med", 0, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c2-low-1", -1, "cpu", "5"), "c2", "cpu", "default")
        .admit(wl("c2-low-2", -1, "cpu", "1"), "c2", "cpu", "default")
        .admit(wl("c2-low-3", -1, "cpu", "1"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "2", "memory", "5Gi"), "c1", "cpu", "default!", "memory", "default!"))
        .containsExactly("c1-med:InClusterQueue");
  }

  @Test
  void preemptingLocallyAndNotBorrowingSameResourceIn1QueueCohort() {
    KueueHarness h = h().admit(wl("l1-med", 0, "cpu", "4"), "l1", "cpu", "default")
        .admit(wl("l1-low", -1, "cpu", "2"), "l1", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4"), "l1", "cpu", "default!"))
        .containsExactly("l1-med:InClusterQueue");
  }

  @Test
  void doNotReclaimBorrowedQuotaFromSamePriorityForWithinCohortReclaimFromLowerPriority() {
    KueueHarness h = h().admit(wl("c1", 0, "cpu", "2"), "c1", "cpu", "default")
        .admit(wl("c2-1", 0, "cpu", "4"), "c2", "cpu", "default")
        .admit(wl("c2-2", 0, "cpu", "4"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "4"), "c1", "cpu", "default!")).isEmpty();
  }

  @Test
  void reclaimBorrowedQuotaFromSamePriorityForWithinCohortReclaimFromAny() {
    KueueHarness h = h().admit(wl("c1-1", 0, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c1-2", 1, "cpu", "4"), "c1", "cpu", "default")
        .admit(wl("c2", 0, "cpu", "2"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "4"), "c2", "cpu", "default!"))
        .containsExactly("c1-1:InCohortReclamation");
  }

  @Test
  void preemptFromAllClusterQueuesInCohort() {
    KueueHarness h = h().admit(wl("c1-low", -1, "cpu", "3"), "c1", "cpu", "default")
        .admit(wl("c1-mid", 0, "cpu", "2"), "c1", "cpu", "default")
        .admit(wl("c2-low", -1, "cpu", "3"), "c2", "cpu", "default")
        .admit(wl("c2-mid", 0, "cpu", "4"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "4"), "c1", "cpu", "default!"))
        .containsExactly("c1-low:InClusterQueue", "c2-low:InCohortReclamation");
  }

  @Test
  void cantPreemptWorkloadsInClusterQueueForWithinClusterQueueNever() {
    KueueHarness h = h().admit(wl("c2-low", -1, "cpu", "3"), "c2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "4"), "c2", "cpu", "default!")).isEmpty();
  }

  @Test
  void eachPodsetPreemptsADifferentFlavor() {
    KueueHarness h = h().admit(wl("low-alpha", -1, "memory", "2Gi"), "standalone", "memory", "alpha")
        .admit(wl("low-beta", -1, "memory", "2Gi"), "standalone", "memory", "beta");
    Workload in = Workload.builder("default", "in").creationTime(NOW)
        .podSet("launcher", 1, req("memory", "2Gi"))
        .podSet("workers", 2, req("memory", "1Gi"))
        .build();
    assertThat(h.targets(in, "standalone", List.of(List.of("memory", "alpha!"), List.of("memory", "beta!"))))
        .containsExactly("low-alpha:InClusterQueue", "low-beta:InClusterQueue");
  }

  @Test
  void preemptNewerWorkloadsWithTheSamePriority() {
    KueueHarness h = h().admit(wl("wl1", 2, "cpu", "2"), "prevent-starvation", "cpu", "default")
        .admitAt(wl("wl2", 1, "cpu", "2"), "prevent-starvation", NOW.plusSeconds(1), "cpu", "default")
        .admit(wl("wl3", 1, "cpu", "2"), "prevent-starvation", "cpu", "default");
    Workload in = Workload.builder("default", "in").priority(1).creationTime(NOW.minus(Duration.ofSeconds(15)))
        .podSet("launcher", 1, req("cpu", "2")).build();
    assertThat(h.targets(in, "prevent-starvation", "cpu", "default!")).containsExactly("wl2:InClusterQueue");
  }

  @Test
  void useBorrowWithinCohortAllowPreemptingALowerPriorityWorkloadFromAnotherClusterQueueWhileBorrowing() {
    KueueHarness h = h().admit(wl("a-best-effort-low", -1, "cpu", "10"), "a-best-effort", "cpu", "default")
        .admit(wl("b-best-effort-low", -1, "cpu", "1"), "b-best-effort", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "10"), "a-standard", "cpu", "default!"))
        .containsExactly("a-best-effort-low:InCohortReclaimWhileBorrowing");
  }

  @Test
  void useBorrowWithinCohortDontAllowPreemptingAboveMaxPriorityThresholdIfBorrowingIsRequiredEvenAfterThePreemption() {
    KueueHarness h = h().admit(wl("b-standard", 1, "cpu", "10"), "b-standard", "cpu", "default");
    assertThat(h.targets(wl("in", 2, "cpu", "10"), "a-standard", "cpu", "default!")).isEmpty();
  }

  @Test
  void useBorrowWithinCohortAllowPreemptingAboveMaxPriorityThresholdIfBorrowingIsNotRequiredAfterThePreemption() {
    KueueHarness h = h().admit(wl("b-standard", 1, "cpu", "13"), "b-standard", "cpu", "default");
    assertThat(h.targets(wl("in", 2, "cpu", "1"), "a-standard", "cpu", "default!"))
        .containsExactly("b-standard:InCohortReclamation");
  }

  @Test
  void useBorrowWithinCohortDontAllowForPreemptionOfLowerPriorityWorkloadFromTheSameClusterQueue() {
    KueueHarness h = h().admit(wl("a-standard", 1, "cpu", "13"), "a-standard", "cpu", "default");
    assertThat(h.targets(wl("in", 2, "cpu", "1"), "a-standard", "cpu", "default!")).isEmpty();
  }

  @Test
  void useBorrowWithinCohortOnlyPreemptFromCqIfNoWorkloadsBelowThresholdAndAlreadyAboveNominal() {
    KueueHarness h = h().admit(wl("a-standard-1", 1, "cpu", "10"), "a-standard", "cpu", "default")
        .admit(wl("a-standard-2", 1, "cpu", "1"), "a-standard", "cpu", "default")
        .admit(wl("b-standard-1", 1, "cpu", "1"), "b-standard", "cpu", "default")
        .admit(wl("b-standard-2", 2, "cpu", "1"), "b-standard", "cpu", "default");
    assertThat(h.targets(wl("in", 3, "cpu", "1"), "b-standard", "cpu", "default!"))
        .containsExactly("b-standard-1:InClusterQueue");
  }

  @Test
  void useBorrowWithinCohortPreemptFromCqAndFromOtherCqsWithWorkloadsBelowThreshold() {
    KueueHarness h = h().admit(wl("b-standard-high", 2, "cpu", "10"), "b-standard", "cpu", "default")
        .admit(wl("b-standard-mid", 1, "cpu", "1"), "b-standard", "cpu", "default")
        .admit(wl("a-best-effort-low", -1, "cpu", "1"), "a-best-effort", "cpu", "default")
        .admit(wl("a-best-effort-lower", -2, "cpu", "1"), "a-best-effort", "cpu", "default");
    assertThat(h.targets(wl("in", 2, "cpu", "2"), "b-standard", "cpu", "default!"))
        .containsExactly("a-best-effort-lower:InCohortReclaimWhileBorrowing", "b-standard-mid:InClusterQueue");
  }

  @Test
  void reclaimQuotaFromLender() {
    KueueHarness h = h().admit(wl("lend1-low", -1, "cpu", "3"), "lend1", "cpu", "default")
        .admit(wl("lend2-mid", 0, "cpu", "3"), "lend2", "cpu", "default")
        .admit(wl("lend2-high", 1, "cpu", "4"), "lend2", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "3"), "lend1", "cpu", "default!"))
        .containsExactly("lend2-mid:InCohortReclamation");
  }

  @Test
  void preemptFromAllClusterQueuesInCohortLend() {
    KueueHarness h = h().admit(wl("lend1-low", -1, "cpu", "3"), "lend1", "cpu", "default")
        .admit(wl("lend1-mid", 0, "cpu", "2"), "lend1", "cpu", "default")
        .admit(wl("lend2-low", -1, "cpu", "3"), "lend2", "cpu", "default")
        .admit(wl("lend2-mid", 0, "cpu", "4"), "lend2", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "4"), "lend1", "cpu", "default!"))
        .containsExactly("lend1-low:InClusterQueue", "lend2-low:InCohortReclamation");
  }

  @Test
  void cannotPreemptFromOtherClusterQueuesIfExceedsRequestableQuotaIncludingLendingLimit() {
    KueueHarness h = h().admit(wl("lend2-low", -1, "cpu", "10"), "lend2", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "9"), "lend1", "cpu", "default!")).isEmpty();
  }

  @Test
  void preemptionsFromCqWhenTargetQueueIsExhaustedForTheSingleRequestedResource() {
    KueueHarness h = h().admit(wl("a1", -2, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("a2", -2, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("a3", -1, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("b1", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b2", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b3", 0, "cpu", "1"), "b", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "a", "cpu", "default!"))
        .containsExactly("a1:InClusterQueue", "a2:InClusterQueue");
  }

  @Test
  void preemptionsFromCqWhenTargetQueueIsExhaustedForTwoRequestedResources() {
    KueueHarness h = h()
        .admit(wl("a1", -2, "cpu", "1", "memory", "1"), "a", "cpu", "default", "memory", "default")
        .admit(wl("a2", -2, "cpu", "1", "memory", "1"), "a", "cpu", "default", "memory", "default")
        .admit(wl("a3", -1, "cpu", "1", "memory", "1"), "a", "cpu", "default", "memory", "default")
        .admit(wl("b1", 0, "cpu", "1", "memory", "1"), "b", "cpu", "default", "memory", "default")
        .admit(wl("b2", 0, "cpu", "1", "memory", "1"), "b", "cpu", "default", "memory", "default")
        .admit(wl("b3", 0, "cpu", "1", "memory", "1"), "b", "cpu", "default", "memory", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2", "memory", "2"), "a", "cpu", "default!", "memory", "default!"))
        .containsExactly("a1:InClusterQueue", "a2:InClusterQueue");
  }

  @Test
  void preemptionsFromCqWhenTargetQueueIsExhaustedForOneRequestedResourceButNotTheOther() {
    KueueHarness h = h().admit(wl("a1", -2, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("a2", -2, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("a3", -1, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("b1", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b2", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b3", 0, "cpu", "1"), "b", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2", "memory", "2"), "a", "cpu", "default!", "memory", "default!"))
        .containsExactly("a1:InClusterQueue", "a2:InClusterQueue");
  }

  @Test
  void allowPreemptionFromOtherClusterQueuesIfTargetCqIsNotExhaustedForTheRequestedResource() {
    KueueHarness h = h().admit(wl("a1", -1, "cpu", "1"), "a", "cpu", "default")
        .admit(wl("b1", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b2", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b3", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b4", 0, "cpu", "1"), "b", "cpu", "default")
        .admit(wl("b5", -1, "cpu", "1"), "b", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "a", "cpu", "default!"))
        .containsExactly("a1:InClusterQueue", "b5:InCohortReclamation");
  }

  @Test
  void longRangePreemption() {
    KueueHarness h = new KueueHarness(List.of("default"), List.of(
            ClusterQueue.builder("cq-left").cohort("cohort-left")
                .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10")))
                .preemption(p(NEVER, ANY)).build(),
            ClusterQueue.builder("cq-right").cohort("cohort-right")
                .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "0"))).build()),
        List.of(Cohort.of("cohort-left", "root"), Cohort.of("cohort-right", "root")), false)
        .withPaths()
        .admit(wl("to-be-preempted", 0, "cpu", "5"), "cq-right", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "8"), "cq-left", "cpu", "default!")).containsExactly(
        "to-be-preempted:InCohortReclamation preemptor path: /root/cohort-left/cq-left; "
            + "preemptee path: /root/cohort-right/cq-right");
  }
}
