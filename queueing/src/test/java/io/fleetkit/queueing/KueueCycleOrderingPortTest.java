package io.fleetkit.queueing;

import static io.fleetkit.queueing.KueueSchedulePortTest.assignments;
import static io.fleetkit.queueing.KueueSchedulePortTest.keys;
import static io.fleetkit.queueing.KueueSchedulePortTest.preemptions;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_test.go} (commit ff69552e), through the engine:
 *
 * <ul>
 *   <li>{@code TestEntryOrdering} "Some workloads are preempted; Priority sorting is enabled" and "Some workloads are
 *       preemptors; PrioritizePreemptorWorkloads is disabled": one head per ClusterQueue, one cycle, the admissions in
 *       the cycle's entry order (upstream pops its iterator);
 *   <li>{@code TestLastSchedulingContext}, its 6 cases: a first cycle (the admissions, preemptions with their reasons
 *       and the pending reasons), the case's deletions, then the cycles after it, and every admission then (upstream's
 *       {@code wantAdmissionsOnSecondSchedule}). Upstream runs each case under four gate settings about how the
 *       status is written ({@code WorkloadRequestUseMergePatch}, {@code UnadmittedWorkloadsObservability}), with the
 *       same expectations; the engine writes no status.
 * </ul>
 *
 * <p>Upstream's cluster queue {@code eng-alpha} of "scheduling on the first flavor is unblocked ..." sets a borrowing
 * limit without a cohort, which Kueue's webhook rejects; it has no effect there and is left out. Upstream's
 * admitted placeholders name no queue, which a FleetKit workload must: each names the LocalQueue of its ClusterQueue.
 * A preemptor's reason ends with {@code ; pending the preemption of N workload(s)} here, with {@code . Pending the
 * preemption of N workload(s)} in Kueue's, after the same flavor messages.
 */
final class KueueCycleOrderingPortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  /** Upstream's {@code whenCanBorrow: TryNextFlavor, whenCanPreempt: TryNextFlavor}, without a preference. */
  private static final FlavorFungibility TRY_NEXT = new FlavorFungibility(
      FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR,
      FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR);

  private static Workload wl(String name, String queue, int priority, String cpu, Instant created) {
    return Workload.builder("default", name).queueName(queue).priority(priority).creationTime(created)
        .request("cpu", cpu).build();
  }

  // TestEntryOrdering

  /** A ClusterQueue of {@code cpu} CPUs of flavor {@code default}, in {@code cohort} if set, and its LocalQueue. */
  private static void queue(AdmissionEngine.Builder b, String name, String cohort, String cpu) {
    ClusterQueue.Builder q = ClusterQueue.builder(name)
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
    b.clusterQueue((cohort == null ? q : q.cohort(cohort)).build()).localQueue(LocalQueue.of("default", name, name));
  }

  private static List<String> admittedNames(CycleResult r) {
    return keys(r).stream().map(k -> k.substring("default/".length())).toList();
  }

  /**
   * "Some workloads are preempted; Priority sorting is enabled": three workloads of priority 1 created at {@code
   * now} were preempted at now+5s, +6s and +7s (here by a priority-2 workload of their own queue, in that order;
   * upstream's first is preempted {@code InClusterQueue}, the other two {@code InCohortReclaimWhileBorrowing}, which
   * with priority sorting on play no part in the order), and their preemptors have finished;
   * "old-mid-not-preempted-yet" (priority 1, now+1s) and "preemptor" (priority 2, now+7s) wait in queues of their
   * own. With priority sorting on, Kueue orders by priority and then by creation, not by the preemption's time.
   */
  @Test
  void entryOrdering_someWorkloadsArePreempted_prioritySortingEnabled() {
    ManualClock clock = new ManualClock(NOW);
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock.asClock()).resourceFlavors("default");
    List<String> preempted = List.of("old-mid-recently-preempted-in-queue",
        "old-mid-recently-reclaimed-while-borrowing", "old-mid-more-recently-reclaimed-while-borrowing");
    for (String n : preempted) {
      queue(b, n, null, "1");
    }
    queue(b, "old-mid-not-preempted-yet", null, "1");
    queue(b, "preemptor", null, "1");
    AdmissionEngine e = b.build();
    for (String n : preempted) {
      e.assumeAdmitted(wl(n, n, 1, "1", NOW), n, Map.of("cpu", "default"), NOW);
    }
    int second = 5;
    for (String n : preempted) {
      clock.set(NOW.plusSeconds(second++));
      e.submit(wl("by-" + n, n, 2, "1", clock.instant()));
      CycleResult r = e.schedule();
      assertThat(preemptions(r)).containsExactly("default/" + n + ":InClusterQueue");
      assertThat(keys(e.schedule())).containsExactly("default/by-" + n);
    }
    for (String n : preempted) {
      e.delete("default/by-" + n);
    }
    e.submit(wl("old-mid-not-preempted-yet", "old-mid-not-preempted-yet", 1, "1", NOW.plusSeconds(1)));
    e.submit(wl("preemptor", "preemptor", 2, "1", NOW.plusSeconds(7)));

    assertThat(admittedNames(e.schedule())).containsExactly("preemptor", "old-mid-recently-preempted-in-queue",
        "old-mid-recently-reclaimed-while-borrowing", "old-mid-more-recently-reclaimed-while-borrowing",
        "old-mid-not-preempted-yet");
  }

  /**
   * "Some workloads are preemptors; PrioritizePreemptorWorkloads is disabled": "preemptor-not-borrowing" (priority 1,
   * now+2s) has preempted a workload of its queue in the cycle before and waits for the quota it freed;
   * "preemptor-borrowing" (priority 1, now+1s) borrows from its cohort's lender (borrowing level 1);
   * "not-preemptor-not-borrowing" (priority 2, now) is new. With the gate off (its default) being a preemptor plays
   * no part: not borrowing first, then priority. Upstream's "preemptor-borrowing" is a preemptor too, which is not
   * reproduced here; the engine orders no head by it.
   */
  @Test
  void entryOrdering_someWorkloadsArePreemptors_prioritizePreemptorWorkloadsDisabled() {
    ManualClock clock = new ManualClock(NOW.plusSeconds(2));
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock.asClock()).resourceFlavors("default");
    queue(b, "preemptor-not-borrowing", null, "1");
    queue(b, "not-preemptor-not-borrowing", null, "1");
    queue(b, "preemptor-borrowing", "flat", "0");
    queue(b, "lender", "flat", "10");
    AdmissionEngine e = b.build();
    e.assumeAdmitted(wl("victim", "preemptor-not-borrowing", 0, "1", NOW), "preemptor-not-borrowing",
        Map.of("cpu", "default"), NOW);
    e.submit(wl("preemptor-not-borrowing", "preemptor-not-borrowing", 1, "1", NOW.plusSeconds(2)));
    CycleResult first = e.schedule();
    assertThat(preemptions(first)).containsExactly("default/victim:InClusterQueue");
    assertThat(first.admitted()).isEmpty();
    e.delete("default/victim");
    e.submit(wl("preemptor-borrowing", "preemptor-borrowing", 1, "1", NOW.plusSeconds(1)));
    e.submit(wl("not-preemptor-not-borrowing", "not-preemptor-not-borrowing", 2, "1", NOW));

    assertThat(admittedNames(e.schedule())).containsExactly("not-preemptor-not-borrowing", "preemptor-not-borrowing",
        "preemptor-borrowing");
  }

  // TestLastSchedulingContext

  /** Upstream's cohort queues: StrictFIFO, reclaim LowerPriority, on-demand 50 (borrowing 50), spot 100 (0). */
  private static ClusterQueue cohortQueue(String name, boolean tryNextFlavor) {
    return ClusterQueue.builder(name).cohort("cohort").queueingStrategy(QueueingStrategy.STRICT_FIFO)
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.LOWER_PRIORITY))
        .flavorFungibility(tryNextFlavor ? TRY_NEXT : new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
            FlavorFungibility.WhenCanPreempt.PREEMPT))
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "50", "50")),
            FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "100", "0")))
        .build();
  }

  private static AdmissionEngine.Builder lastContextEngine(List<ClusterQueue> cqs) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(new ManualClock(NOW).asClock())
        .resourceFlavors("on-demand", "spot");
    cqs.forEach(b::clusterQueue);
    for (String[] lq : List.of(new String[] {"main", "eng-alpha"}, new String[] {"main-alpha", "eng-cohort-alpha"},
        new String[] {"main-beta", "eng-cohort-beta"}, new String[] {"main-theta", "eng-cohort-theta"})) {
      if (cqs.stream().anyMatch(q -> q.name().equals(lq[1]))) {
        b.localQueue(LocalQueue.of("default", lq[0], lq[1]));
      }
    }
    return b;
  }

  private static List<ClusterQueue> cohortQueues() {
    return List.of(cohortQueue("eng-cohort-alpha", false), cohortQueue("eng-cohort-beta", false),
        cohortQueue("eng-cohort-theta", true));
  }

  /** An admitted workload of upstream's without a queue: here queued in the LocalQueue of its ClusterQueue. */
  private static void admitted(AdmissionEngine e, String name, String cq, String flavor, String cpu, int priority) {
    e.assumeAdmitted(wl(name, localQueueOf(cq), priority, cpu, NOW), cq, Map.of("cpu", flavor), NOW);
  }

  private static String localQueueOf(String cq) {
    return cq.replace("eng-cohort-", "main-");
  }

  private static TreeSet<String> on(String cq, String flavor) {
    return new TreeSet<>(List.of("main:cpu=" + flavor + "@" + cq));
  }

  /** The admissions after the cycles that follow the first (upstream schedules once more, or twice). */
  private static Map<String, TreeSet<String>> afterNextCycles(AdmissionEngine e, String... cqs) {
    e.scheduleUntilIdle(10);
    return assignments(e, cqs);
  }

  @Test
  void lastSchedulingContext_schedulingOnTheFirstFlavorIsUnblockedAfterSomeWorkloadsWereDeleted() {
    ClusterQueue alpha = ClusterQueue.builder("eng-alpha").queueingStrategy(QueueingStrategy.BEST_EFFORT_FIFO)
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
        .flavorFungibility(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
            FlavorFungibility.WhenCanPreempt.PREEMPT))
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "50")),
            FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "10")))
        .build();
    AdmissionEngine e = lastContextEngine(List.of(alpha)).build();
    e.assumeAdmitted(wl("low-1", "main", 0, "50", NOW), "eng-alpha", Map.of("cpu", "on-demand"), NOW);
    e.submit(wl("preemptor", "main", 0, "20", NOW));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.preempted()).isEmpty();
    assertThat(r.pending()).containsEntry("default/preemptor", "couldn't assign flavors to pod set main: "
        + "insufficient quota for cpu in flavor spot, previously considered podsets requests (0) + current podset "
        + "request (20) > maximum capacity (10), insufficient unused quota for cpu in flavor on-demand, 20 more"
        + " needed");

    e.delete("default/low-1");
    assertThat(afterNextCycles(e, "eng-alpha")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "default/preemptor", on("eng-alpha", "on-demand")));
  }

  @Test
  void lastSchedulingContext_borrowBeforeNextFlavor() {
    AdmissionEngine e = lastContextEngine(cohortQueues()).build();
    admitted(e, "placeholder", "eng-cohort-alpha", "on-demand", "50", 0);
    e.submit(wl("borrower", "main-alpha", 0, "20", NOW));
    e.submit(wl("workload1", "main-beta", 0, "20", NOW));
    CycleResult r = e.schedule();
    // one cycle: workload1 (within its nominal quota) first, then the borrower, which borrows on-demand rather than
    // going on to spot
    assertThat(keys(r)).containsExactly("default/workload1", "default/borrower");
    assertThat(r.preempted()).isEmpty();

    assertThat(afterNextCycles(e, "eng-cohort-alpha", "eng-cohort-beta", "eng-cohort-theta"))
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "default/placeholder", on("eng-cohort-alpha", "on-demand"),
            "default/workload1", on("eng-cohort-beta", "on-demand"),
            "default/borrower", on("eng-cohort-alpha", "on-demand")));
  }

  @Test
  void lastSchedulingContext_borrowAfterAllFlavors() {
    AdmissionEngine e = lastContextEngine(cohortQueues()).build();
    admitted(e, "placeholder", "eng-cohort-alpha", "on-demand", "50", 0);
    admitted(e, "placeholder1", "eng-cohort-theta", "on-demand", "50", 0);
    e.submit(wl("workload", "main-theta", 0, "20", NOW));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("default/workload");

    assertThat(afterNextCycles(e, "eng-cohort-alpha", "eng-cohort-beta", "eng-cohort-theta"))
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "default/placeholder", on("eng-cohort-alpha", "on-demand"),
            "default/placeholder1", on("eng-cohort-theta", "on-demand"),
            "default/workload", on("eng-cohort-theta", "spot")));
  }

  @Test
  void lastSchedulingContext_whenTheNextFlavorIsFullButCanBorrowOnFirst() {
    AdmissionEngine e = lastContextEngine(cohortQueues()).build();
    admitted(e, "placeholder", "eng-cohort-alpha", "on-demand", "40", 0);
    admitted(e, "placeholder1", "eng-cohort-theta", "on-demand", "40", 0);
    admitted(e, "placeholder2", "eng-cohort-theta", "spot", "100", 0);
    e.submit(wl("workload", "main-theta", 0, "20", NOW));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("default/workload");

    assertThat(afterNextCycles(e, "eng-cohort-alpha", "eng-cohort-beta", "eng-cohort-theta"))
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "default/placeholder", on("eng-cohort-alpha", "on-demand"),
            "default/placeholder1", on("eng-cohort-theta", "on-demand"),
            "default/placeholder2", on("eng-cohort-theta", "spot"),
            "default/workload", on("eng-cohort-theta", "on-demand")));
  }

  @Test
  void lastSchedulingContext_whenTheNextFlavorIsFullButCanPreemptOnFirst() {
    AdmissionEngine e = lastContextEngine(cohortQueues()).build();
    admitted(e, "placeholder-alpha", "eng-cohort-alpha", "on-demand", "150", -1);
    admitted(e, "placeholder-theta-spot", "eng-cohort-theta", "spot", "100", 0);
    e.submit(wl("new", "main-theta", 0, "20", NOW));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(preemptions(r)).containsExactly("default/placeholder-alpha:InCohortReclamation");
    assertThat(r.preempted().get(0).message()).isEqualTo("Preempted to accommodate a workload (default/new) due to "
        + "reclamation within the cohort; preemptor path: /cohort/eng-cohort-theta; preemptee path: "
        + "/cohort/eng-cohort-alpha");
    assertThat(r.pending()).containsEntry("default/new", "couldn't assign flavors to pod set main: insufficient "
        + "unused quota for cpu in flavor on-demand, 20 more needed, insufficient unused quota for cpu in flavor spot,"
        + " 20 more needed; pending the preemption of 1 workload(s)");

    e.delete("default/placeholder-alpha");
    assertThat(afterNextCycles(e, "eng-cohort-alpha", "eng-cohort-beta", "eng-cohort-theta"))
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "default/placeholder-theta-spot", on("eng-cohort-theta", "spot"),
            "default/new", on("eng-cohort-theta", "on-demand")));
  }

  @Test
  void lastSchedulingContext_tryNextFlavorButSecondFlavorIsFullAndCanPreemptOnFirst() {
    ClusterQueuePreemption preemption =
        ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY);
    FlavorFungibility tryNext = TRY_NEXT;
    List<ClusterQueue> cqs = List.of(
        ClusterQueue.builder("eng-cohort-alpha").cohort("cohort").preemption(preemption).flavorFungibility(tryNext)
            .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "0", "60")),
                FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "30", "30")))
            .build(),
        ClusterQueue.builder("eng-cohort-beta").cohort("cohort").preemption(preemption).flavorFungibility(tryNext)
            .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "30", "30")),
                FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "30", "30")))
            .build(),
        ClusterQueue.builder("eng-cohort-shared").cohort("cohort")
            .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "30")))
            .build());
    AdmissionEngine e = lastContextEngine(cqs).build();
    e.assumeAdmitted(wl("alpha1", "main-alpha", 0, "22", NOW), "eng-cohort-alpha", Map.of("cpu", "on-demand"),
        NOW.minusSeconds(1));
    admitted(e, "alpha2", "eng-cohort-alpha", "on-demand", "22", 0);
    admitted(e, "alpha3", "eng-cohort-alpha", "spot", "22", 0);
    admitted(e, "beta1", "eng-cohort-beta", "spot", "22", 0);
    e.submit(wl("new", "main-beta", 0, "22", NOW));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(preemptions(r)).containsExactly("default/alpha2:InCohortReclamation");
    assertThat(r.preempted().get(0).message()).isEqualTo("Preempted to accommodate a workload (default/new) due to "
        + "reclamation within the cohort; preemptor path: /cohort/eng-cohort-beta; preemptee path: "
        + "/cohort/eng-cohort-alpha");
    assertThat(r.pending()).containsEntry("default/new", "couldn't assign flavors to pod set main: insufficient "
        + "unused quota for cpu in flavor on-demand, 6 more needed, insufficient unused quota for cpu in flavor spot,"
        + " 6 more needed; pending the preemption of 1 workload(s)");

    e.delete("default/alpha2");
    assertThat(afterNextCycles(e, "eng-cohort-alpha", "eng-cohort-beta", "eng-cohort-shared"))
        .containsExactlyInAnyOrderEntriesOf(Map.of(
            "default/alpha1", on("eng-cohort-alpha", "on-demand"),
            "default/alpha3", on("eng-cohort-alpha", "spot"),
            "default/beta1", on("eng-cohort-beta", "spot"),
            "default/new", on("eng-cohort-beta", "on-demand")));
  }
}
