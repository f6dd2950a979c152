package io.fleetkit.queueing.internal;

import static io.fleetkit.queueing.QueuePreemptionPolicy.ANY;
import static io.fleetkit.queueing.QueuePreemptionPolicy.LOWER_PRIORITY;
import static io.fleetkit.queueing.internal.KueueHarness.wl;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/preemption/preemption_hierarchical_test.go},
 * {@code TestHierarchicalPreemptions} (commit ff69552e): the same cohort trees, ClusterQueues, admitted workloads,
 * incoming workload (its assignment: every resource of flavor {@code default} in mode Preempt) and the same expected
 * preemptions with their reasons and the paths of Kueue's preemption message ({@code preemptor path: /r/c/q;
 * preemptee path: /r/q_borrowing}). {@link KueueHarness} also makes upstream's check that the search leaves the
 * snapshot (every queue's and cohort's usage) unchanged. 14 of upstream's 15 cases.
 *
 * <p>Adapted: names with {@code _} are spelled with {@code -} ({@code q_borrowing} -> {@code q-borrowing}); a
 * ClusterQueue whose flavor lists no resources (or that has no resource group) covers them with a nominal quota of 0,
 * which is the quota Kueue gives it; "preempt in cohort and own CQ" admits {@code admitted_preemptible} with the 2 CPU
 * of its admission (its pod set requests 1, the admission upstream sets up assigns 2, and the usage is the admission's).
 *
 * <p>Not ported: "prefer to preempt evicted workloads": the candidate already carries an {@code Evicted} condition
 * while it still holds its quota (an eviction in progress), which Kueue prefers and does not evict again; FleetKit
 * evicts its targets in the cycle that chooses them, so no admitted workload is ever already evicted.
 */
final class KueueHierarchicalPreemptionPortTest {
  private static final ClusterQueuePreemption LP_ANY = ClusterQueuePreemption.of(LOWER_PRIORITY, ANY);
  private static final ClusterQueuePreemption LP_ANY_BWC0 =
      new ClusterQueuePreemption(LOWER_PRIORITY, ANY, BorrowWithinCohort.lowerPriority(0));
  private static final ClusterQueuePreemption LP_LP_BWC0 =
      new ClusterQueuePreemption(LOWER_PRIORITY, QueuePreemptionPolicy.LOWER_PRIORITY, BorrowWithinCohort.lowerPriority(0));

  private static ClusterQueue cq(String name, String cohort, ClusterQueuePreemption p, FlavorResourceQuota... quotas) {
    FlavorResourceQuota[] q = quotas.length == 0 ? new FlavorResourceQuota[] {FlavorResourceQuota.of("cpu", "0")} : quotas;
    return ClusterQueue.builder(name).cohort(cohort).resourceGroup(FlavorQuotas.of("default", q)).preemption(p).build();
  }

  private static FlavorResourceQuota cpu(String nominal) {
    return FlavorResourceQuota.of("cpu", nominal);
  }

  private static Cohort root(String name) {
    return Cohort.of(name, null);
  }

  private static Cohort cohort(String name, String parent, FlavorResourceQuota... quotas) {
    return Cohort.builder(name).parent(parent).resourceGroup(FlavorQuotas.of("default", quotas)).build();
  }

  private static KueueHarness h(List<Cohort> cohorts, ClusterQueue... queues) {
    return new KueueHarness(List.of("default"), List.of(queues), cohorts, false).withPaths();
  }

  private static String t(String name, String reason, String preemptor, String preemptee) {
    return name + ":" + reason + " preemptor path: " + preemptor + "; preemptee path: " + preemptee;
  }

  //            R
  //      /      |
  //   C(2) q_borrowing(0)
  //  /
  // q
  @Test
  void preemptWithHierarchicalAdvantage() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q", "c", LP_ANY), cq("q-borrowing", "r", LP_ANY))
        .admit(wl("admitted2", 0, "cpu", "2"), "q-borrowing", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "q", "cpu", "default!"))
        .containsExactly(t("admitted2", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  //             R
  //      /      |         \
  //   C(2) q_borrowing(0)  q_nominal(2)
  //  /
  // q
  @Test
  void avoidQueuesWithinNominalQuota() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q-nominal", "r", LP_ANY, cpu("2")), cq("q", "c", LP_ANY), cq("q-borrowing", "r", LP_ANY))
        .admit(wl("admitted1", -10, "cpu", "2"), "q-nominal", "cpu", "default")
        .admit(wl("admitted2", 0, "cpu", "2"), "q-borrowing", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "q", "cpu", "default!"))
        .containsExactly(t("admitted2", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  @Test
  void preemptMultipleWithHierarchicalAdvantage() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q", "c", LP_ANY), cq("q-borrowing", "r", LP_ANY))
        .admit(wl("admitted1", 1, "cpu", "1"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted2", 2, "cpu", "1"), "q-borrowing", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "q", "cpu", "default!")).containsExactly(
        t("admitted1", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"),
        t("admitted2", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  //        R(0)
  //      /
  //   C(3)
  //  /   \
  // q(0) q_same_cohort(0)
  @Test
  void preemptInCohortAndOwnCq() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("3"))),
        cq("q", "c", LP_ANY_BWC0), cq("q-same-cohort", "c", LP_ANY))
        .admit(wl("admitted-not-preemptible", 1, "cpu", "1"), "q-same-cohort", "cpu", "default")
        .admit(wl("admitted-preemptible", 0, "cpu", "2"), "q-same-cohort", "cpu", "default")
        .admit(wl("admitted-own-queue", -1, "cpu", "1"), "q", "cpu", "default");
    assertThat(h.targets(wl("in", 1, "cpu", "2"), "q", "cpu", "default!")).containsExactly(
        t("admitted-own-queue", "InClusterQueue", "/r/c/q", "/r/c/q"),
        t("admitted-preemptible", "InCohortReclaimWhileBorrowing", "/r/c/q", "/r/c/q-same-cohort"));
  }

  @Test
  void preferToPreemptHierarchicalCandidate() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q", "c", LP_ANY), cq("q-borrowing", "r", LP_ANY))
        .admit(wl("admitted-borrowing", 1, "cpu", "1"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-same-queue", -2, "cpu", "1"), "q", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "1"), "q", "cpu", "default!"))
        .containsExactly(t("admitted-borrowing", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  //           R(0)
  //      /      |
  //   C(2)   q_nominal(2)
  //  /   \
  // q(0) q_same_cohort(0)
  @Test
  void forcedToPreemptPriorityCandidate() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q", "c", LP_ANY_BWC0), cq("q-nominal", "r", LP_ANY, cpu("2")), cq("q-same-cohort", "c", LP_ANY))
        .admit(wl("admitted-nominal", -10, "cpu", "2"), "q-nominal", "cpu", "default")
        .admit(wl("admitted-same-cohort", -1, "cpu", "2"), "q-same-cohort", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "q", "cpu", "default!")).containsExactly(
        t("admitted-same-cohort", "InCohortReclaimWhileBorrowing", "/r/c/q", "/r/c/q-same-cohort"));
  }

  //           R(0)
  //      /      |
  //   C(2)   q_borrowing(0)
  //  /    \
  // q(4)  q_same_cohort(0)
  @Test
  void incomingWorkloadFitsInCqNominalQuota() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q", "c", LP_ANY, cpu("4")), cq("q-borrowing", "r", LP_ANY), cq("q-same-cohort", "c", LP_ANY))
        .admit(wl("admitted-borrowing", 10, "cpu", "3"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-same-cohort", 10, "cpu", "3"), "q-same-cohort", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "4"), "q", "cpu", "default!")).containsExactly(
        t("admitted-borrowing", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"),
        t("admitted-same-cohort", "InCohortReclamation", "/r/c/q", "/r/c/q-same-cohort"));
  }

  //           R(1)
  //      /      |
  //   C(4)   q_borrowing(0)
  //  /    \
  // q(0)  q_same_cohort(0)
  private static KueueHarness rootWithQuota() {
    return h(List.of(Cohort.builder("r").resourceGroup(FlavorQuotas.of("default", cpu("1"))).build(),
            cohort("c", "r", cpu("4"))),
        cq("q", "c", LP_LP_BWC0), cq("q-borrowing", "r", LP_ANY), cq("q-same-cohort", "c", LP_ANY));
  }

  @Test
  void preemptHierarchicalAndPriorityCandidates() {
    KueueHarness h = rootWithQuota()
        .admit(wl("admitted-borrowing", -1, "cpu", "2"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-same-cohort-preemptible", -1, "cpu", "1"), "q-same-cohort", "cpu", "default")
        .admit(wl("admitted-borrowing-not-preemptible", 1, "cpu", "2"), "q-borrowing", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "3"), "q", "cpu", "default!")).containsExactly(
        t("admitted-borrowing", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"),
        t("admitted-same-cohort-preemptible", "InCohortReclaimWhileBorrowing", "/r/c/q", "/r/c/q-same-cohort"));
  }

  @Test
  void preemptHierarchicalCandidatesAndInsideCq() {
    KueueHarness h = rootWithQuota()
        .admit(wl("admitted-borrowing", -1, "cpu", "2"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-same-queue-preemptible", -1, "cpu", "1"), "q", "cpu", "default")
        .admit(wl("admitted-borrowing-not-preemptible", 1, "cpu", "2"), "q-borrowing", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "3"), "q", "cpu", "default!")).containsExactly(
        t("admitted-borrowing", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"),
        t("admitted-same-queue-preemptible", "InClusterQueue", "/r/c/q", "/r/c/q"));
  }

  //            R(0)
  //      /      |          \
  //   C(3) q_borrowing(0)  q_nominal(2)
  //  /
  // q(0)
  @Test
  void reclaimNominalQuotaFromLowestPriorityWorkloadExcludingNonBorrowing() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("3"))),
        cq("q", "c", LP_ANY), cq("q-borrowing", "r", LP_ANY), cq("q-nominal", "r", LP_ANY, cpu("2")))
        .admit(wl("admitted-borrowing-prio-8", 8, "cpu", "1"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-borrowing-prio-9", 9, "cpu", "1"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-borrowing-prio-10", 9, "cpu", "1"), "q-borrowing", "cpu", "default")
        .admit(wl("admitted-nominal", -2, "cpu", "2"), "q-nominal", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "1"), "q", "cpu", "default!"))
        .containsExactly(t("admitted-borrowing-prio-8", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  //                  R
  //            /            \
  //      C(2)                   C_other(2)
  //     /    \                     |
  //    q(0)  q_same_cohort(0)   q_other(0)
  @Test
  void infeasiblePreemptionAllAvailableWorkloadsInPrunedSubtrees() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2")), cohort("c-other", "r", cpu("2"))),
        cq("q-other", "c-other", LP_ANY), cq("q", "c", LP_ANY), cq("q-same-cohort", "c", LP_ANY))
        .admit(wl("admitted-other-1", -10, "cpu", "1"), "q-other", "cpu", "default")
        .admit(wl("admitted-other-2", -10, "cpu", "1"), "q-other", "cpu", "default")
        .admit(wl("admitted-same-cohort", 0, "cpu", "2"), "q-same-cohort", "cpu", "default");
    assertThat(h.targets(wl("in", 0, "cpu", "2"), "q", "cpu", "default!")).isEmpty();
  }

  //          R(3CPU, 0Gi)
  //      /      |
  //   C(4CPU,4Gi) q_borrowing(0)
  //  /    \
  // q(0)   q_same_cohort(0)
  @Test
  void hiearchicalPreemptionWithMultipleResources() {
    FlavorResourceQuota cpu0 = cpu("0");
    FlavorResourceQuota mem0 = FlavorResourceQuota.of("memory", "0");
    KueueHarness h = h(List.of(Cohort.builder("r").resourceGroup(FlavorQuotas.of("default", cpu("3"))).build(),
            cohort("c", "r", cpu("4"), FlavorResourceQuota.of("memory", "4Gi"))),
        cq("q", "c", LP_ANY, cpu0, mem0), cq("q-borrowing", "r", LP_ANY, cpu0, mem0),
        cq("q-same-cohort", "c", LP_ANY, cpu0, mem0))
        .admit(wl("admitted-borrowing", 0, "cpu", "3", "memory", "1Gi"), "q-borrowing",
            "cpu", "default", "memory", "default")
        .admit(wl("admitted-same-cohort", -2, "cpu", "1", "memory", "3Gi"), "q-same-cohort",
            "cpu", "default", "memory", "default");
    assertThat(h.targets(wl("in", -2, "cpu", "2", "memory", "1Gi"), "q", "cpu", "default!", "memory", "default!"))
        .containsExactly(t("admitted-borrowing", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  //           R(0)
  //      /      |
  //   C(2)   q_borrowing(0)
  //  /
  // q(3, lending limit 2)
  @Test
  void respectLendingLimits() {
    KueueHarness h = h(List.of(root("r"), cohort("c", "r", cpu("2"))),
        cq("q", "c", LP_ANY, cpu("3").withLendingLimit("2")), cq("q-borrowing", "r", LP_ANY))
        .admit(wl("admitted-borrowing", 0, "cpu", "4"), "q-borrowing", "cpu", "default");
    assertThat(h.targets(wl("in", -2, "cpu", "5"), "q", "cpu", "default!"))
        .containsExactly(t("admitted-borrowing", "InCohortReclamation", "/r/c/q", "/r/q-borrowing"));
  }

  //                                r
  //                             /      \
  //                          c11        c12
  //                       /   |   \       \
  //                    c21   c22    c23    q1
  //                  /  |     |     |
  //                c31  c32   q3    q2
  //              /      |
  //            q5       q4
  // quotas 4: c11, c12, c21, c22, c23, c32, c31; 0: q1, q3, q4, q5
  @Test
  void reclaimInComplexHierarchy() {
    KueueHarness h = h(List.of(root("r"), cohort("c11", "r", cpu("4")), cohort("c12", "r", cpu("4")),
            cohort("c21", "c11", cpu("4")), cohort("c22", "c11", cpu("4")), cohort("c23", "c11", cpu("4")),
            cohort("c31", "c21", cpu("4")), cohort("c32", "c21", cpu("4"))),
        cq("q1", "c12", LP_ANY), cq("q2", "c23", LP_ANY), cq("q3", "c22", LP_ANY), cq("q4", "c32", LP_ANY),
        cq("q5", "c31", LP_ANY))
        .admit(wl("admitted-borrowing-1", -6, "cpu", "4"), "q1", "cpu", "default")
        .admit(wl("admitted-borrowing-2", -5, "cpu", "4"), "q1", "cpu", "default")
        .admit(wl("admitted-borrowing-3", -9, "cpu", "4"), "q2", "cpu", "default")
        .admit(wl("admitted-borrowing-4", -10, "cpu", "4"), "q2", "cpu", "default")
        .admit(wl("admitted-borrowing-5", -4, "cpu", "4"), "q3", "cpu", "default")
        .admit(wl("admitted-borrowing-6", -3, "cpu", "3"), "q3", "cpu", "default")
        .admit(wl("admitted-borrowing-7", 4, "cpu", "2"), "q4", "cpu", "default")
        .admit(wl("admitted-borrowing-8", 2, "cpu", "3"), "q4", "cpu", "default");
    // only one of the workloads of q2 is preempted: after the first, cohort c23 is back within its quota
    assertThat(h.targets(wl("in", -2, "cpu", "7"), "q5", "cpu", "default!")).containsExactly(
        t("admitted-borrowing-1", "InCohortReclamation", "/r/c11/c21/c31/q5", "/r/c12/q1"),
        t("admitted-borrowing-4", "InCohortReclamation", "/r/c11/c21/c31/q5", "/r/c11/c23/q2"));
  }
}
