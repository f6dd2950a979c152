package io.fleetkit.queueing;

import static io.fleetkit.queueing.KueueSchedulePortTest.assignments;
import static io.fleetkit.queueing.KueueSchedulePortTest.keys;
import static io.fleetkit.queueing.KueueSchedulePortTest.left;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_fs_test.go}, {@code TestScheduleForFairSharing}
 * (commit ff69552e): the ClusterQueues, LocalQueues and namespaces of {@link KueueSchedulePortTest} with the case's
 * Cohorts, queues and workloads, fair sharing on, one scheduling cycle; then upstream's admissions ({@code
 * wantAssignments}, flavor per pod set and resource) and the workloads left in their queue ({@code wantLeft}). Each
 * test is named after its upstream case; docs/conformance.md lists the cases not ported and why. Upstream's Cohort
 * names in capitals ({@code Cohort-A}, {@code SUB-A}, {@code A}) and its workload names with underscores ({@code
 * all_nominal}), which Kueue's webhooks reject as names, are written in lowercase and with hyphens.
 */
final class KueueScheduleForFairSharingPortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static AdmissionEngine engine(List<Cohort> cohorts, List<ClusterQueue> cqs, String... lqToCq) {
    List<LocalQueue> lqs = new ArrayList<>();
    for (int i = 0; i < lqToCq.length; i += 2) {
      lqs.add(LocalQueue.of("eng-alpha", lqToCq[i], lqToCq[i + 1]));
    }
    return KueueSchedulePortTest.builder(cqs, lqs, cohorts).fairSharing(true).build();
  }

  /** A ClusterQueue of {@code cohort} with one resource group of cpu quotas, {@code flavor, nominal} pairs. */
  private static ClusterQueue cq(String name, String cohort, String... flavorNominal) {
    List<FlavorQuotas> fqs = new ArrayList<>();
    for (int i = 0; i < flavorNominal.length; i += 2) {
      fqs.add(FlavorQuotas.of(flavorNominal[i], FlavorResourceQuota.of("cpu", flavorNominal[i + 1])));
    }
    return ClusterQueue.builder(name).cohort(cohort).resourceGroup(fqs.toArray(FlavorQuotas[]::new)).build();
  }

  private static Cohort cohort(String name, String parent, String... flavorNominal) {
    Cohort.Builder b = Cohort.builder(name);
    if (parent != null) {
      b.parent(parent);
    }
    if (flavorNominal.length > 0) {
      List<FlavorQuotas> fqs = new ArrayList<>();
      for (int i = 0; i < flavorNominal.length; i += 2) {
        fqs.add(FlavorQuotas.of(flavorNominal[i], FlavorResourceQuota.of("cpu", flavorNominal[i + 1])));
      }
      b.resourceGroup(fqs.toArray(FlavorQuotas[]::new));
    }
    return b.build();
  }

  /** Upstream's workloads of these cases: one pod set {@code one} of one pod requesting {@code cpu}. */
  private static Workload wl(String name, String queue, String cpu) {
    return Workload.builder("eng-alpha", name).queueName(queue).creationTime(NOW)
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse(cpu)).build()).build();
  }

  private static void admitted(AdmissionEngine e, String name, String queue, String cpu, String cq, String flavor) {
    e.assumeAdmitted(wl(name, queue, cpu), cq, Map.of("cpu", flavor), NOW);
  }

  private static TreeSet<String> on(String cq, String flavor) {
    return new TreeSet<>(List.of("one:cpu=" + flavor + "@" + cq));
  }

  @Test
  void withFairSharingHierarchicalNominalFirstPrefersNonBorrowingSubtree() {
    AdmissionEngine e = engine(
        List.of(cohort("root", null), cohort("cohort-a", "root", "on-demand", "10"), cohort("cohort-b", "root")),
        List.of(cq("cq-a", "cohort-a", "on-demand", "0"), cq("cq-b", "cohort-b", "on-demand", "5"),
            cq("cq-c", "cohort-b", "on-demand", "0")),
        "lq-a", "cq-a", "lq-b", "cq-b", "lq-c", "cq-c");
    admitted(e, "c0", "lq-c", "10", "cq-c", "on-demand");
    e.submit(wl("wl-a", "lq-a", "5"));
    e.submit(wl("wl-b", "lq-b", "5"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/wl-a");
    assertThat(assignments(e, "cq-a", "cq-b", "cq-c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/c0", on("cq-c", "on-demand"), "eng-alpha/wl-a", on("cq-a", "on-demand")));
    assertThat(left(e, "cq-b")).containsExactly("eng-alpha/wl-b");
    assertThat(r.pending().get("eng-alpha/wl-b")).containsIgnoringCase("no longer fits after processing another workload");
  }

  //                 ROOT
  //           /                \
  //   COHORT-A (0/10)      COHORT-B (10/5)
  //      |                  /         \
  //   SUB-A (0/10)      cq-b (0/5)  cq-c (10/0)
  //      |
  //   cq-a (0/0)
  // (usage/subtreeQuota). wl-a takes SUB-A and COHORT-A to 5/10, not borrowing; wl-b takes COHORT-B to 15/5,
  // borrowing: at the root, the subtree that does not borrow wins.
  @Test
  void withFairSharingHierarchicalNominalFirstWithDeeperNesting() {
    AdmissionEngine e = engine(
        List.of(cohort("root", null), cohort("cohort-a", "root"), cohort("sub-a", "cohort-a", "on-demand", "10"),
            cohort("cohort-b", "root")),
        List.of(cq("cq-a", "sub-a", "on-demand", "0"), cq("cq-b", "cohort-b", "on-demand", "5"),
            cq("cq-c", "cohort-b", "on-demand", "0")),
        "lq-a", "cq-a", "lq-b", "cq-b", "lq-c", "cq-c");
    admitted(e, "c0", "lq-c", "10", "cq-c", "on-demand");
    e.submit(wl("wl-a", "lq-a", "5"));
    e.submit(wl("wl-b", "lq-b", "5"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/wl-a");
    assertThat(assignments(e, "cq-a", "cq-b", "cq-c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/c0", on("cq-c", "on-demand"), "eng-alpha/wl-a", on("cq-a", "on-demand")));
    assertThat(left(e, "cq-b")).containsExactly("eng-alpha/wl-b");
  }

  //                  ROOT
  //            /            \
  //   COHORT-A (6/18)      COHORT-B (20/18)
  //     /       \             /        \
  // cq-a1 (0/5) cq-a2 (6/3) cq-b (0/5) cq-c (20/3)
  // wl-a1 (7) takes COHORT-A to 13/18, not borrowing; wl-b (4) takes COHORT-B to 24/18, borrowing.
  @Test
  void withFairSharingHierarchicalNominalFirstWithMixedCqAndCohortQuotas() {
    AdmissionEngine e = engine(
        List.of(cohort("root", null), cohort("cohort-a", "root", "on-demand", "10"),
            cohort("cohort-b", "root", "on-demand", "10")),
        List.of(cq("cq-a1", "cohort-a", "on-demand", "5"), cq("cq-a2", "cohort-a", "on-demand", "3"),
            cq("cq-b", "cohort-b", "on-demand", "5"), cq("cq-c", "cohort-b", "on-demand", "3")),
        "lq-a1", "cq-a1", "lq-a2", "cq-a2", "lq-b", "cq-b", "lq-c", "cq-c");
    admitted(e, "a2-admitted", "lq-a2", "6", "cq-a2", "on-demand");
    admitted(e, "c-admitted", "lq-c", "20", "cq-c", "on-demand");
    e.submit(wl("wl-a1", "lq-a1", "7"));
    e.submit(wl("wl-b", "lq-b", "4"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/wl-a1");
    assertThat(assignments(e, "cq-a1", "cq-a2", "cq-b", "cq-c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/a2-admitted", on("cq-a2", "on-demand"), "eng-alpha/c-admitted", on("cq-c", "on-demand"),
        "eng-alpha/wl-a1", on("cq-a1", "on-demand")));
    assertThat(left(e, "cq-b")).containsExactly("eng-alpha/wl-b");
  }

  //                     ROOT
  //            /                    \
  //     COHORT-A                   COHORT-B
  //     on-demand: (0/10)          on-demand: (8/5)
  //     spot:      (5/0)           spot:      (0/10)
  //         |                          |
  //       cq-a (5 spot admitted)     cq-b (8 on-demand admitted)
  // Both cohorts borrow from ROOT, on different flavors. wl-a and wl-b both request on-demand: COHORT-A would not
  // borrow on-demand, COHORT-B would. Only 7 on-demand remain, so after wl-a wl-b no longer fits.
  @Test
  void withFairSharingHierarchicalNominalFirstPerFlavorIgnoresCrossFlavorBorrowing() {
    AdmissionEngine e = engine(
        List.of(cohort("root", null), cohort("cohort-a", "root", "on-demand", "10"),
            cohort("cohort-b", "root", "spot", "10")),
        List.of(cq("cq-a", "cohort-a", "on-demand", "0", "spot", "0"),
            cq("cq-b", "cohort-b", "on-demand", "5", "spot", "0")),
        "lq-a", "cq-a", "lq-b", "cq-b");
    admitted(e, "spot-admitted", "lq-a", "5", "cq-a", "spot");
    admitted(e, "od-admitted", "lq-b", "8", "cq-b", "on-demand");
    e.submit(wl("wl-a", "lq-a", "4"));
    e.submit(wl("wl-b", "lq-b", "4"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/wl-a");
    assertThat(assignments(e, "cq-a", "cq-b")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/spot-admitted", on("cq-a", "spot"), "eng-alpha/od-admitted", on("cq-b", "on-demand"),
        "eng-alpha/wl-a", on("cq-a", "on-demand")));
    assertThat(left(e, "cq-b")).containsExactly("eng-alpha/wl-b");
  }

  //            A (200)
  //        /       \
  //     B(30)         C(100)
  //    /    \        /  \
  //   d(10) e(20)   f(0)  g(100)
  // (current admissions, proportional to the dominant resource share). Pending, and the shares once admitted:
  // d1: 70 -> d(80), B(100); e1: 61 -> e(81), B(91); f1: 1 -> f(1), C(101); g1: 1 -> g(101), C(101).
  // d1 wins: it beats e1 in B (80 < 81), and B(100) beats C(101) in A, though e1 would have left B lower.
  @Test
  void hierarchicalFairSharingScheduleWorkloadWhichWinsTournament() {
    AdmissionEngine e = engine(
        List.of(cohort("a", null, "on-demand", "200"), cohort("b", "a"), cohort("c", "a")),
        List.of(cq("d", "b", "on-demand", "0"), cq("e", "b", "on-demand", "0"), cq("f", "c", "on-demand", "0"),
            cq("g", "c", "on-demand", "0")),
        "lq-d", "d", "lq-e", "e", "lq-f", "f", "lq-g", "g");
    admitted(e, "d0", "lq-d", "10", "d", "on-demand");
    admitted(e, "e0", "lq-e", "20", "e", "on-demand");
    admitted(e, "g0", "lq-g", "100", "g", "on-demand");
    e.submit(wl("d1", "lq-d", "70"));
    e.submit(wl("e1", "lq-e", "61"));
    e.submit(wl("f1", "lq-f", "1"));
    e.submit(wl("g1", "lq-g", "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/d1");
    assertThat(assignments(e, "d", "e", "f", "g")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/d0", on("d", "on-demand"), "eng-alpha/e0", on("e", "on-demand"),
        "eng-alpha/g0", on("g", "on-demand"), "eng-alpha/d1", on("d", "on-demand")));
    assertThat(left(e, "e")).containsExactly("eng-alpha/e1");
    assertThat(left(e, "f")).containsExactly("eng-alpha/f1");
    assertThat(left(e, "g")).containsExactly("eng-alpha/g1");
  }

  private static Workload wl(String ns, String name, String queue, int priority, Instant created, int pods) {
    return Workload.builder(ns, name).queueName(queue).priority(priority).creationTime(created)
        .podSet("one", pods, ResourceList.builder().put("cpu", Quantity.parse("1")).build()).build();
  }

  private static ClusterQueue.Builder weighted(String name, String cohort, String weight) {
    return ClusterQueue.builder(name).cohort(cohort).fairSharingWeight(Quantity.parse(weight))
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.ANY))
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "0")));
  }

  @Test
  void withFairSharingScheduleWorkloadWithLowestShareFirst() {
    AdmissionEngine e = engine(List.of(), List.of(ClusterQueue.builder("eng-shared").cohort("eng")
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "10", "0"))).build()));
    e.assumeAdmitted(wl("eng-alpha", "all-nominal", "main", 0, NOW, 50), "eng-alpha", Map.of("cpu", "on-demand"), NOW);
    // half of the shared quota
    e.assumeAdmitted(wl("eng-beta", "borrowing", "main", 0, NOW, 55), "eng-beta", Map.of("cpu", "on-demand"), NOW);
    e.submit(wl("eng-beta", "older-new", "main", 0, NOW.minusSeconds(60), 1));
    e.submit(wl("eng-alpha", "new", "main", 0, NOW, 5));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/new");
    assertThat(e.admission("eng-alpha/new").orElseThrow().podSets().get(0).flavors()).containsEntry("cpu", "on-demand");
    assertThat(e.admission("eng-alpha/new").orElseThrow().podSets().get(0).count()).isEqualTo(5);
    assertThat(left(e, "eng-beta")).containsExactly("eng-beta/older-new");
  }

  // Upstream gives each queue two resource groups that both cover cpu (on-demand, then spot), which Kueue's webhook
  // refuses; here one group lists the two flavors in that order.
  @Test
  void withFairSharingNominalFirstOrderingAdmitsWorkloadFittingWithinNominalDespiteHigherCqDrs() {
    AdmissionEngine e = KueueSchedulePortTest.builder(List.of(
            ClusterQueue.builder("fs-nom-a").cohort("fs-nom").resourceGroup(
                FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "50", "0")),
                FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "50", "50"))).build(),
            ClusterQueue.builder("fs-nom-b").cohort("fs-nom").resourceGroup(
                FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "10", "50")),
                FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "50", "0"))).build()),
        List.of(LocalQueue.of("eng-alpha", "fs-nom", "fs-nom-a"), LocalQueue.of("eng-beta", "fs-nom", "fs-nom-b")),
        List.of()).fairSharing(true).build();
    e.assumeAdmitted(wl("eng-alpha", "spot-heavy", "fs-nom", 0, NOW, 80), "fs-nom-a", Map.of("cpu", "spot"), NOW);
    e.assumeAdmitted(wl("eng-beta", "light-usage", "fs-nom", 0, NOW, 5), "fs-nom-b", Map.of("cpu", "on-demand"), NOW);
    e.submit(wl("eng-beta", "borrow-wl", "fs-nom", 0, NOW.minusSeconds(60), 15));
    e.submit(wl("eng-alpha", "nom-wl", "fs-nom", 0, NOW, 45));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/nom-wl");
    assertThat(assignments(e, "fs-nom-a", "fs-nom-b")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/spot-heavy", on("fs-nom-a", "spot"), "eng-beta/light-usage", on("fs-nom-b", "on-demand"),
        "eng-alpha/nom-wl", on("fs-nom-a", "on-demand")));
    assertThat(left(e, "fs-nom-b")).containsExactly("eng-beta/borrow-wl");
  }

  // b0 uses 10; b1 (50) and c1 (75) are pending: b1 goes first, as b0 + b1 = 60 is less than c1's 75.
  @Test
  void fairSharingScheduleWorkloadWithLowestDrfAfterAdmission() {
    AdmissionEngine e = engine(List.of(cohort("a", null, "on-demand", "100")),
        List.of(cq("b", "a", "on-demand", "0"), cq("c", "a", "on-demand", "0")), "lq-b", "b", "lq-c", "c");
    admitted(e, "b0", "lq-b", "10", "b", "on-demand");
    e.submit(wl("b1", "lq-b", "50"));
    e.submit(wl("c1", "lq-c", "75"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/b1");
    assertThat(assignments(e, "b", "c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/b0", on("b", "on-demand"), "eng-alpha/b1", on("b", "on-demand")));
    assertThat(left(e, "c")).containsExactly("eng-alpha/c1");
  }

  // b0 uses 4; b1 and c1 are pending. Though b1 has the higher priority, c1 goes first: its queue borrows less (two
  // queues of weight 0 that borrow compare by their unweighted shares).
  @Test
  void fairSharingTwoQueuesWithWeight0SchedulesWorkloadWhichBorrowsLess() {
    twoWeightedQueues("0");
  }

  @Test
  void fairSharingTwoQueuesWithHighWeightSchedulesWorkloadWhichBorrowsLess() {
    twoWeightedQueues("123456789");
  }

  private static void twoWeightedQueues(String weight) {
    AdmissionEngine e = engine(List.of(cohort("a", null, "on-demand", "8")),
        List.of(weighted("b", "a", weight).build(), weighted("c", "a", weight).build()), "lq-b", "b", "lq-c", "c");
    admitted(e, "b0", "lq-b", "4", "b", "on-demand");
    e.submit(Workload.builder("eng-alpha", "b1").queueName("lq-b").priority(9001).creationTime(NOW)
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse("4")).build()).build());
    e.submit(wl("c1", "lq-c", "4"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/c1");
    assertThat(assignments(e, "b", "c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/b0", on("b", "on-demand"), "eng-alpha/c1", on("c", "on-demand")));
    assertThat(left(e, "b")).containsExactly("eng-alpha/b1");
  }

  // Cohort a's quota is its own, cohort b's is its queue's, and queue c has no cohort: all three workloads admit.
  @Test
  void fairSharingScheduleSingletonCqsAndCqWithoutCohort() {
    AdmissionEngine e = KueueSchedulePortTest.builder(
        List.of(cq("a", "a", "on-demand", "0"), cq("b", "b", "on-demand", "10"),
            ClusterQueue.builder("c").resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "10")))
                .build()),
        List.of(LocalQueue.of("eng-alpha", "lq-a", "a"), LocalQueue.of("eng-alpha", "lq-b", "b"),
            LocalQueue.of("eng-alpha", "lq-c", "c")),
        List.of(cohort("a", null, "on-demand", "10"), cohort("b", null))).fairSharing(true).build();
    e.submit(wl("a1", "lq-a", "10"));
    e.submit(wl("b1", "lq-b", "10"));
    e.submit(wl("c1", "lq-c", "10"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactlyInAnyOrder("eng-alpha/a1", "eng-alpha/b1", "eng-alpha/c1");
    assertThat(assignments(e, "a", "b", "c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/a1", on("a", "on-demand"), "eng-alpha/b1", on("b", "on-demand"),
        "eng-alpha/c1", on("c", "on-demand")));
  }

  @Test
  void fairSharingScheduleHighestPriorityFirst() {
    AdmissionEngine e = engine(List.of(cohort("a", null, "on-demand", "10"), cohort("b", null)),
        List.of(cq("b", "a", "on-demand", "0"), cq("c", "a", "on-demand", "0")), "lq-b", "b", "lq-c", "c");
    e.submit(Workload.builder("eng-alpha", "b1").queueName("lq-b").priority(99).creationTime(NOW)
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse("10")).build()).build());
    e.submit(Workload.builder("eng-alpha", "c1").queueName("lq-c").priority(101).creationTime(NOW)
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse("10")).build()).build());
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/c1");
    assertThat(assignments(e, "b", "c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/c1", on("c", "on-demand")));
    assertThat(left(e, "b")).containsExactly("eng-alpha/b1");
  }

  @Test
  void fairSharingScheduleEarliestTimestampFirst() {
    AdmissionEngine e = engine(List.of(cohort("a", null, "on-demand", "10"), cohort("b", null)),
        List.of(cq("b", "a", "on-demand", "0"), cq("c", "a", "on-demand", "0")), "lq-b", "b", "lq-c", "c");
    e.submit(Workload.builder("eng-alpha", "b1").queueName("lq-b").priority(101).creationTime(NOW.plusSeconds(1))
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse("10")).build()).build());
    e.submit(Workload.builder("eng-alpha", "c1").queueName("lq-c").priority(101).creationTime(NOW)
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse("10")).build()).build());
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/c1");
    assertThat(assignments(e, "b", "c")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/c1", on("c", "on-demand")));
    assertThat(left(e, "b")).containsExactly("eng-alpha/b1");
  }

  private static Workload req(String ns, String name, String queue, int priority, String... requests) {
    Workload.Builder b = Workload.builder(ns, name).queueName(queue).priority(priority).creationTime(NOW);
    for (int i = 0; i < requests.length; i += 2) {
      b.request(requests[i], requests[i + 1]);
    }
    return b.build();
  }

  @Test
  void withFairSharingPreemptWorkloadFromCqWithTheHighestShare() {
    AdmissionEngine e = engine(List.of(), List.of(ClusterQueue.builder("eng-gamma").cohort("eng")
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "50", "0"))).build()));
    e.assumeAdmitted(req("eng-alpha", "all-spot", "main", 0, "cpu", "100"), "eng-alpha", Map.of("cpu", "spot"), NOW);
    for (int i = 1; i <= 4; i++) {
      e.assumeAdmitted(req("eng-alpha", "alpha" + i, "main", 0, "cpu", "20"), "eng-alpha", Map.of("cpu", "on-demand"),
          NOW);
    }
    e.assumeAdmitted(req("eng-gamma", "gamma1", "main", 0, "cpu", "10"), "eng-gamma", Map.of("cpu", "on-demand"), NOW);
    for (int i = 2; i <= 4; i++) {
      e.assumeAdmitted(req("eng-gamma", "gamma" + i, "main", 0, "cpu", "20"), "eng-gamma", Map.of("cpu", "on-demand"),
          NOW);
    }
    e.submit(req("eng-beta", "preemptor", "main", 0, "cpu", "30"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(KueueSchedulePortTest.preemptions(r))
        .containsExactly("eng-alpha/alpha1:InCohortReclamation", "eng-gamma/gamma1:InCohortReclamation");
    // the preemptor is not admitted in this cycle
    assertThat(left(e, "eng-beta")).containsExactly("eng-beta/preemptor");
  }

  @Test
  void notEnoughResourcesWithFairSharingEnabled() {
    AdmissionEngine e = engine(List.of(), List.of());
    e.submit(Workload.builder("sales", "new").queueName("main").creationTime(NOW)
        .podSet("one", 1, ResourceList.builder().put("cpu", Quantity.parse("100")).build()).build());
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(left(e, "sales")).containsExactly("sales/new");
  }

  // Flavor on-demand needs priority-based preemption in the queue, flavor spot reclamation in the cohort: spot is the
  // better assignment, reclamation being preferred.
  @Test
  void withFairSharingPreferReclamationOverCqPriorityBasedPreemptionWithPreemptionWhileBorrowing() {
    AdmissionEngine e = KueueSchedulePortTest.builder(List.of(
            ClusterQueue.builder("other-alpha").cohort("other")
                .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY,
                    QueuePreemptionPolicy.LOWER_PRIORITY))
                .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("gpu", "7")),
                    FlavorQuotas.of("spot", FlavorResourceQuota.of("gpu", "7"))).build(),
            ClusterQueue.builder("other-beta").cohort("other")
                .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("gpu", "3")),
                    FlavorQuotas.of("spot", FlavorResourceQuota.of("gpu", "3"))).build()),
        List.of(LocalQueue.of("eng-alpha", "other", "other-alpha"), LocalQueue.of("eng-beta", "other", "other-beta")),
        List.of()).fairSharing(true).build();
    e.assumeAdmitted(req("eng-alpha", "a1", "other", 50, "gpu", "5"), "other-alpha", Map.of("gpu", "on-demand"), NOW);
    e.assumeAdmitted(req("eng-beta", "b1", "other", 50, "gpu", "5"), "other-beta", Map.of("gpu", "spot"), NOW);
    e.submit(req("eng-alpha", "preemptor", "other", 100, "gpu", "8"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(KueueSchedulePortTest.preemptions(r)).containsExactly("eng-beta/b1:InCohortFairSharing");
    assertThat(left(e, "other-alpha")).containsExactly("eng-alpha/preemptor");
  }

  /** Kueue's "prefer flavor with most local capacity" and its "(FS=false)" twin. */
  private static void preferFlavorWithMostLocalCapacity(boolean fairSharing) {
    AdmissionEngine e = KueueSchedulePortTest.builder(List.of(
            ClusterQueue.builder("queue1").cohort("child-cohort")
                .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY))
                .flavorFungibility(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR,
                    FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR))
                .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("gpu", "3")),
                    FlavorQuotas.of("spot", FlavorResourceQuota.of("gpu", "3"))).build()),
        List.of(LocalQueue.of("default", "queue1", "queue1")),
        List.of(Cohort.builder("root-cohort").resourceGroup(FlavorQuotas.of("on-demand",
                FlavorResourceQuota.of("gpu", "2")), FlavorQuotas.of("spot", FlavorResourceQuota.of("gpu", "0"))).build(),
            Cohort.builder("child-cohort").parent("root-cohort").resourceGroup(FlavorQuotas.of("on-demand",
                FlavorResourceQuota.of("gpu", "5")), FlavorQuotas.of("spot", FlavorResourceQuota.of("gpu", "7"))).build()))
        .fairSharing(fairSharing).build();
    // exhaust on-demand in the parent cohort, and spot in the ClusterQueue
    e.assumeAdmitted(req("default", "a1", "queue1", 0, "gpu", "8"), "queue1", Map.of("gpu", "on-demand"), NOW);
    e.assumeAdmitted(req("default", "a2", "queue1", 0, "gpu", "3"), "queue1", Map.of("gpu", "spot"), NOW);
    e.submit(req("default", "a3", "queue1", 0, "gpu", "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("default/a3");
    assertThat(e.admission("default/a3").orElseThrow().flavorOf("gpu")).isEqualTo("spot");
    assertThat(r.preempted()).isEmpty();
  }

  @Test
  void preferFlavorWithMostLocalCapacity() {
    preferFlavorWithMostLocalCapacity(true);
  }

  @Test
  void preferFlavorWithMostLocalCapacityFsFalse() {
    preferFlavorWithMostLocalCapacity(false);
  }

  // Kueue's regression test: preemption within a ClusterQueue without a cohort, with fair sharing.
  @Test
  void fairSharingInCqPreemptionForCqWithoutCohortReproForNilPointerPanic() {
    AdmissionEngine e = KueueSchedulePortTest.builder(List.of(ClusterQueue.builder("no-cohort-cq")
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build()),
        List.of(LocalQueue.of("default", "no-cohort-queue", "no-cohort-cq")), List.of()).fairSharing(true).build();
    e.assumeAdmitted(req("default", "nc-low", "no-cohort-queue", -1, "cpu", "4"), "no-cohort-cq",
        Map.of("cpu", "default"), NOW);
    e.submit(req("default", "nc-high", "no-cohort-queue", 100, "cpu", "4"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(KueueSchedulePortTest.preemptions(r)).containsExactly("default/nc-low:InClusterQueue");
    // the victim, evicted in the cycle, is queued again (Kueue keeps it admitted until its eviction completes)
    assertThat(left(e, "no-cohort-cq")).containsExactlyInAnyOrder("default/nc-high", "default/nc-low");
  }

  @Test
  void preemptionOverBorrowingWithFairSharingPreemptInFirstFlavorInsteadOfBorrowingInSecond() {
    AdmissionEngine e = KueueSchedulePortTest.builder(List.of(
            ClusterQueue.builder("fs-pob-cq").cohort("fs-pob-cohort")
                .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
                .flavorFungibility(FlavorFungibility.tryEveryFlavor(
                    FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING))
                .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "5", "0")),
                    FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "0", "5"))).build(),
            ClusterQueue.builder("fs-pob-lender").cohort("fs-pob-cohort")
                .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "0")),
                    FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "5"))).build()),
        List.of(LocalQueue.of("default", "fs-pob-queue", "fs-pob-cq")), List.of()).fairSharing(true).build();
    e.assumeAdmitted(req("default", "fs-low-pob", "fs-pob-queue", -1, "cpu", "5"), "fs-pob-cq",
        Map.of("cpu", "on-demand"), NOW);
    e.submit(req("default", "fs-high-pob", "fs-pob-queue", 0, "cpu", "5"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(KueueSchedulePortTest.preemptions(r)).containsExactly("default/fs-low-pob:InClusterQueue");
    assertThat(r.pending().get("default/fs-high-pob")).isEqualTo("couldn't assign flavors to pod set main: "
        + "insufficient unused quota for cpu in flavor on-demand, 5 more needed; pending the preemption of 1 workload(s)");
    assertThat(left(e, "fs-pob-cq")).containsExactlyInAnyOrder("default/fs-high-pob", "default/fs-low-pob");
  }
}
