package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/scheduler/scheduler_test.go}, {@code TestSchedule}: the same
 * ClusterQueues ({@code sales}, {@code eng-alpha}, {@code eng-beta}, {@code lend-a}, {@code lend-b}), LocalQueues and
 * workloads; one scheduling cycle; then the same admissions ({@code wantAssignments}, as flavor per pod set and
 * resource), preempted workloads, and workloads left in the queue ({@code wantLeft}) or parked as inadmissible
 * ({@code wantInadmissibleLeft}). Each test is named after its upstream case (15 cases). Kueue's test CQs set
 * borrowing limits on queues without a cohort, which its webhook rejects; they have no effect there and are left out.
 */
final class KueueSchedulePortTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  private static ClusterQueue.Builder cq(String name) {
    return ClusterQueue.builder(name);
  }

  private static FlavorQuotas fq(String flavor, String resource, String nominal, String borrowing) {
    return FlavorQuotas.of(flavor, FlavorResourceQuota.of(resource, nominal, borrowing));
  }

  private static List<ClusterQueue> clusterQueues() {
    return List.of(
        cq("sales").queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "50"))).build(),
        cq("eng-alpha").cohort("eng").queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .resourceGroup(fq("on-demand", "cpu", "50", "50"), fq("spot", "cpu", "100", "0")).build(),
        cq("eng-beta").cohort("eng").queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY))
            .resourceGroup(fq("on-demand", "cpu", "50", "10"), fq("spot", "cpu", "0", "100"))
            .resourceGroup(fq("model-a", "example.com/gpu", "20", "0")).build(),
        cq("lend-a").cohort("lend")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "3").withLendingLimit("2"))).build(),
        cq("lend-b").cohort("lend")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "2").withLendingLimit("2"))).build());
  }

  private static List<LocalQueue> localQueues() {
    return List.of(
        LocalQueue.of("sales", "main", "sales"),
        LocalQueue.of("eng-alpha", "main", "eng-alpha"),
        LocalQueue.of("eng-beta", "main", "eng-beta"),
        LocalQueue.of("lend", "lend-a-queue", "lend-a"),
        LocalQueue.of("lend", "lend-b-queue", "lend-b"));
  }

  private static AdmissionEngine engine(List<ClusterQueue> extraCqs, List<LocalQueue> extraLqs) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(Clock.fixed(NOW, ZoneOffset.UTC))
        .resourceFlavors("default", "on-demand", "spot", "model-a");
    List<ClusterQueue> cqs = new ArrayList<>(clusterQueues());
    cqs.addAll(extraCqs);
    cqs.forEach(b::clusterQueue);
    List<LocalQueue> lqs = new ArrayList<>(localQueues());
    lqs.addAll(extraLqs);
    lqs.forEach(b::localQueue);
    return b.build();
  }

  private static AdmissionEngine engine() {
    return engine(List.of(), List.of());
  }

  private static Workload wl(String ns, String name, String queue, int priority, String cpu) {
    return Workload.builder(ns, name).queueName(queue).priority(priority).creationTime(NOW).request("cpu", cpu).build();
  }

  private static Workload podSet(String ns, String name, String queue, String podSet, int count, String cpu) {
    return Workload.builder(ns, name).queueName(queue).creationTime(NOW)
        .podSet(podSet, count, ResourceList.builder().put("cpu", Quantity.parse(cpu)).build()).build();
  }

  /** Every admission as {@code key -> [podSet:resource=flavor, ...]}. */
  private static Map<String, TreeSet<String>> assignments(AdmissionEngine e, String... cqs) {
    Map<String, TreeSet<String>> out = new TreeMap<>();
    for (String cq : cqs) {
      for (QuotaReservation a : e.admitted(cq)) {
        TreeSet<String> s = new TreeSet<>();
        for (PodSetAssignment p : a.podSets()) {
          p.flavors().forEach((r, f) -> s.add(p.name() + ":" + r + "=" + f + "@" + cq));
        }
        out.put(a.workload(), s);
      }
    }
    return out;
  }

  private static List<String> keys(CycleResult r) {
    return r.admitted().stream().map(QuotaReservation::workload).toList();
  }

  private static TreeSet<String> preempted(CycleResult r) {
    TreeSet<String> s = new TreeSet<>();
    r.preempted().forEach(p -> s.add(p.workload()));
    return s;
  }

  @Test
  void useSecondFlavorWhenTheFirstHasNoPreemptionCandidatesWhenCanPreemptPreempt() {
    ClusterQueue other = cq("other-alpha")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
        .flavorFungibility(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
            FlavorFungibility.WhenCanPreempt.PREEMPT))
        .resourceGroup(FlavorQuotas.of("on-demand", FlavorResourceQuota.of("cpu", "50")),
            FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "100")))
        .build();
    AdmissionEngine e = engine(List.of(other), List.of(LocalQueue.of("eng-alpha", "other", "other-alpha")));
    e.assumeAdmitted(wl("eng-alpha", "admitted", "other", 0, "50"), "other-alpha", Map.of("cpu", "on-demand"), NOW);
    e.submit(wl("eng-alpha", "new", "other", 0, "20"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/new");
    assertThat(preempted(r)).isEmpty();
    assertThat(assignments(e, "other-alpha")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/admitted", new TreeSet<>(List.of("main:cpu=on-demand@other-alpha")),
        "eng-alpha/new", new TreeSet<>(List.of("main:cpu=spot@other-alpha"))));
  }

  @Test
  void workloadFitsInSingleClusterQueue() {
    AdmissionEngine e = engine();
    e.submit(podSet("sales", "foo", "main", "one", 10, "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("sales/foo");
    QuotaReservation a = e.admission("sales/foo").orElseThrow();
    assertThat(a.clusterQueue()).isEqualTo("sales");
    assertThat(a.podSets().get(0).count()).isEqualTo(10);
    assertThat(a.podSets().get(0).flavors()).containsExactlyEntriesOf(Map.of("cpu", "default"));
    assertThat(a.podSets().get(0).resourceUsage().get("cpu")).isEqualTo(Quantity.parse("10000m"));
  }

  @Test
  void singleClusterQueueFull() {
    AdmissionEngine e = engine();
    e.assumeAdmitted(podSet("sales", "assigned", "main", "one", 40, "1"), "sales", Map.of("cpu", "default"), NOW);
    e.submit(podSet("sales", "new", "main", "one", 11, "1"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(e.pending("sales")).containsExactly("sales/new");
    assertThat(e.inadmissible("sales")).isEmpty();
    assertThat(assignments(e, "sales")).containsOnlyKeys("sales/assigned");
  }

  @Test
  void admitInDifferentCohorts() {
    AdmissionEngine e = engine();
    e.submit(podSet("sales", "new", "main", "one", 1, "1"));
    e.submit(podSet("eng-alpha", "new", "main", "one", 51, "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactlyInAnyOrder("sales/new", "eng-alpha/new");
    assertThat(e.admission("eng-alpha/new").orElseThrow().flavorOf("cpu")).isEqualTo("on-demand");
    assertThat(e.admission("eng-alpha/new").orElseThrow().borrowing()).isTrue();
  }

  @Test
  void admitInSameCohortWithNoBorrowing() {
    AdmissionEngine e = engine();
    e.submit(podSet("eng-alpha", "new", "main", "one", 40, "1"));
    e.submit(podSet("eng-beta", "new", "main", "one", 40, "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactlyInAnyOrder("eng-alpha/new", "eng-beta/new");
    assertThat(assignments(e, "eng-alpha", "eng-beta")).containsExactlyInAnyOrderEntriesOf(Map.of(
        "eng-alpha/new", new TreeSet<>(List.of("one:cpu=on-demand@eng-alpha")),
        "eng-beta/new", new TreeSet<>(List.of("one:cpu=on-demand@eng-beta"))));
  }

  @Test
  void assignMultipleResourcesAndFlavors() {
    AdmissionEngine e = engine();
    e.submit(Workload.builder("eng-beta", "new").queueName("main").creationTime(NOW)
        .podSet("one", 10, ResourceList.builder().put("cpu", "6").put("example.com/gpu", "1").build())
        .podSet("two", 40, ResourceList.builder().put("cpu", "1").build())
        .build());
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-beta/new");
    QuotaReservation a = e.admission("eng-beta/new").orElseThrow();
    assertThat(a.podSets().get(0).flavors())
        .containsExactlyInAnyOrderEntriesOf(Map.of("cpu", "on-demand", "example.com/gpu", "model-a"));
    assertThat(a.podSets().get(0).resourceUsage().get("cpu")).isEqualTo(Quantity.parse("60"));
    assertThat(a.podSets().get(0).resourceUsage().get("example.com/gpu")).isEqualTo(Quantity.parse("10"));
    assertThat(a.podSets().get(1).flavors()).containsExactlyEntriesOf(Map.of("cpu", "spot"));
  }

  @Test
  void cannotBorrowIfCohortWasAssignedAndWouldResultInOveradmission() {
    AdmissionEngine e = engine();
    e.submit(podSet("eng-alpha", "new", "main", "one", 45, "1"));
    e.submit(podSet("eng-beta", "new", "main", "one", 56, "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/new");
    assertThat(e.pending("eng-beta")).containsExactly("eng-beta/new");
    assertThat(e.inadmissible("eng-beta")).isEmpty();
  }

  @Test
  void canBorrowIfCohortWasAssignedAndWillNotResultInOveradmission() {
    AdmissionEngine e = engine();
    e.submit(podSet("eng-alpha", "new", "main", "one", 45, "1"));
    e.submit(podSet("eng-beta", "new", "main", "one", 55, "1"));
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/new", "eng-beta/new");
    assertThat(e.admission("eng-beta/new").orElseThrow().flavorOf("cpu")).isEqualTo("on-demand");
  }

  @Test
  void canBorrowIfNeedsReclaimFromCohortInDifferentFlavor() {
    AdmissionEngine e = engine();
    e.submit(wl("eng-alpha", "can-reclaim", "main", 0, "100"));
    e.submit(wl("eng-beta", "needs-to-borrow", "main", 0, "1"));
    e.assumeAdmitted(wl("eng-beta", "user-on-demand", "main", 0, "50"), "eng-beta", Map.of("cpu", "on-demand"), NOW);
    e.assumeAdmitted(wl("eng-beta", "user-spot", "main", 0, "1"), "eng-beta", Map.of("cpu", "spot"), NOW);
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-beta/needs-to-borrow");
    assertThat(e.admission("eng-beta/needs-to-borrow").orElseThrow().flavorOf("cpu")).isEqualTo("on-demand");
    assertThat(e.pending("eng-alpha")).containsExactly("eng-alpha/can-reclaim");
    assertThat(preempted(r)).isEmpty();
  }

  @Test
  void workloadExceedsLendingLimitWhenBorrowInCohort() {
    AdmissionEngine e = engine();
    e.assumeAdmitted(wl("lend", "a", "lend-b-queue", 0, "2"), "lend-b", Map.of("cpu", "default"), NOW);
    e.submit(wl("lend", "b", "lend-b-queue", 0, "3"));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(e.inadmissible("lend-b")).containsExactly("lend/b");
    assertThat(assignments(e, "lend-a", "lend-b")).containsOnlyKeys("lend/a");
  }

  @Test
  void preemptWorkloadsInClusterQueueAndCohort() {
    AdmissionEngine e = engine();
    e.submit(wl("eng-beta", "preemptor", "main", 0, "20"));
    e.assumeAdmitted(wl("eng-alpha", "use-all-spot", "main", 0, "100"), "eng-alpha", Map.of("cpu", "spot"), NOW);
    e.assumeAdmitted(wl("eng-beta", "low-1", "main", -1, "30"), "eng-beta", Map.of("cpu", "on-demand"), NOW);
    e.assumeAdmitted(wl("eng-beta", "low-2", "main", -2, "10"), "eng-beta", Map.of("cpu", "on-demand"), NOW);
    e.assumeAdmitted(wl("eng-alpha", "borrower", "main", 0, "60"), "eng-alpha", Map.of("cpu", "on-demand"), NOW);
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(preempted(r)).containsExactly("eng-alpha/borrower", "eng-beta/low-2");
    assertThat(e.pending("eng-beta")).contains("eng-beta/preemptor");
    // The preemptor is admitted in a later cycle, once the victims' quota is free.
    CycleResult next = e.schedule();
    assertThat(keys(next)).contains("eng-beta/preemptor");
  }

  @Test
  void multipleCqsNeedPreemption() {
    ClusterQueue otherAlpha = cq("other-alpha").cohort("other")
        .resourceGroup(fq("on-demand", "cpu", "50", "50")).build();
    ClusterQueue otherBeta = cq("other-beta").cohort("other")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY))
        .resourceGroup(fq("on-demand", "cpu", "50", "10")).build();
    AdmissionEngine e = engine(List.of(otherAlpha, otherBeta), List.of(
        LocalQueue.of("eng-alpha", "other", "other-alpha"), LocalQueue.of("eng-beta", "other", "other-beta")));
    e.submit(wl("eng-beta", "preemptor", "other", -1, "1"));
    e.submit(wl("eng-alpha", "pending", "other", 1, "1"));
    e.assumeAdmitted(wl("eng-alpha", "use-all", "other", 0, "100"), "other-alpha", Map.of("cpu", "on-demand"), NOW);
    CycleResult r = e.schedule();
    assertThat(preempted(r)).containsExactly("eng-alpha/use-all");
    assertThat(e.pending("other-beta")).containsExactly("eng-beta/preemptor");
    assertThat(e.inadmissible("other-beta")).isEmpty();
    assertThat(r.pending()).containsKey("eng-alpha/pending");
  }

  @Test
  void cannotBorrowResourceNotListedInClusterQueue() {
    AdmissionEngine e = engine();
    e.submit(Workload.builder("eng-alpha", "new").queueName("main").request("example.com/gpu", "1").build());
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending().get("eng-alpha/new")).contains("resource example.com/gpu unavailable in ClusterQueue");
    assertThat(e.pending("eng-alpha")).containsExactly("eng-alpha/new");
  }

  @Test
  void notEnoughResourcesToBorrowFallbackToNextFlavorWhenCanPreemptTryNextFlavor() {
    AdmissionEngine e = engine();
    e.submit(podSet("eng-alpha", "new", "main", "one", 60, "1"));
    e.assumeAdmitted(podSet("eng-beta", "existing", "main", "one", 45, "1"), "eng-beta",
        Map.of("cpu", "on-demand"), NOW);
    CycleResult r = e.schedule();
    assertThat(keys(r)).containsExactly("eng-alpha/new");
    assertThat(e.admission("eng-alpha/new").orElseThrow().flavorOf("cpu")).isEqualTo("spot");
  }

  @Test
  void skipWorkloadWithMissingOrDeletedClusterQueue() {
    AdmissionEngine e = engine();
    Workload missing = podSet("sales", "missing-cq-workload", "non-existent-queue", "set", 1, "1");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> e.submit(missing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("spec.queueName \"non-existent-queue\"");
    assertThat(e.schedule().progressed()).isFalse();
  }
}
