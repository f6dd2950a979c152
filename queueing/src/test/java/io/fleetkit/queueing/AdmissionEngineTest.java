package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class AdmissionEngineTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private static Workload wl(String name, int priority, int createdSecond, String cpu) {
    return Workload.builder("team", name).queueName("q").priority(priority)
        .creationTime(T0.plusSeconds(createdSecond)).request("cpu", cpu).build();
  }

  private AdmissionEngine single(QueueingStrategy strategy, String nominal) {
    return AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq").queueingStrategy(strategy)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", nominal))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .build();
  }

  /**
   * Regression: a reclaiming preemptor's usage stays reserved for the rest of its cycle (Kueue's
   * cycleCohortsUsage). Without that, a borrowing head of the lending queue took the quota freed for the preemptor
   * in the same cycle, and two such heads preempted each other cycle after cycle.
   */
  @Test
  void schedule_reclaimingPreemptor_keepsTheFreedQuotaForItself() {
    ClusterQueuePreemption reclaim = ClusterQueuePreemption.of(QueuePreemptionPolicy.NEVER, QueuePreemptionPolicy.ANY);
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq-a").cohort("c").preemption(reclaim)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build())
        .clusterQueue(ClusterQueue.builder("cq-b").cohort("c")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build())
        .localQueue(LocalQueue.of("team", "a", "cq-a"))
        .localQueue(LocalQueue.of("team", "b", "cq-b"))
        .build();
    for (int i = 1; i <= 3; i++) {
      e.submit(Workload.builder("team", "b" + i).queueName("b").creationTime(T0.plusSeconds(i))
          .request("cpu", "2").build());
    }
    e.scheduleUntilIdle(10);
    assertThat(e.admittedCount()).isEqualTo(3);

    e.submit(Workload.builder("team", "a1").queueName("a").creationTime(T0).request("cpu", "4").build());
    e.submit(Workload.builder("team", "b4").queueName("b").creationTime(T0.plusSeconds(4)).request("cpu", "2")
        .build());
    List<CycleResult> cycles = e.scheduleUntilIdle(50);

    assertThat(e.admission("team/a1")).isPresent();
    assertThat(cycles.stream().mapToInt(c -> c.preempted().size()).sum()).isEqualTo(1);
    assertThat(cycles).hasSizeLessThan(5);
  }

  @Test
  void lookups_flavorAndLocalQueue_foundByNameWithNodeLabels() {
    AdmissionEngine e = AdmissionEngine.builder()
        .resourceFlavor(new ResourceFlavor("spot", Map.of("cloud.example/spot", "true")))
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("spot", FlavorResourceQuota.of("cpu", "1")))
            .build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .build();

    assertThat(e.resourceFlavor("spot").orElseThrow().nodeLabels()).isEqualTo(Map.of("cloud.example/spot", "true"));
    assertThat(e.resourceFlavor("on-demand")).isEmpty();
    assertThat(e.localQueue("ns", "lq").orElseThrow().clusterQueue()).isEqualTo("cq");
    assertThat(e.localQueue("other", "lq")).isEmpty();
  }

  @Test
  void schedule_strictFifoHeadDoesNotFit_blocksSmallerWorkloads() {
    AdmissionEngine e = single(QueueingStrategy.STRICT_FIFO, "4");
    e.assumeAdmitted(wl("running", 0, 0, "3"), "cq", Map.of("cpu", "default"), T0);
    e.submit(wl("big", 5, 1, "2"));
    e.submit(wl("small", 0, 2, "1"));
    List<CycleResult> cycles = e.scheduleUntilIdle(10);
    assertThat(cycles).isEmpty();
    assertThat(e.pending("cq")).containsExactly("team/big", "team/small");
    assertThat(e.admission("team/small")).isEmpty();
  }

  @Test
  void schedule_bestEffortFifoHeadDoesNotFit_admitsNextAndRetriesHeadWhenQuotaIsReleased() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "4");
    e.assumeAdmitted(wl("running", 0, 0, "3"), "cq", Map.of("cpu", "default"), T0);
    e.submit(wl("big", 5, 1, "2"));
    e.submit(wl("small", 0, 2, "1"));
    CycleResult first = e.schedule();
    assertThat(first.admitted()).isEmpty();
    assertThat(first.pending().get("team/big")).contains("insufficient unused quota for cpu in flavor default, 1 more needed");
    assertThat(e.inadmissible("cq")).containsExactly("team/big");
    CycleResult second = e.schedule();
    assertThat(second.admitted()).extracting(QuotaReservation::workload).containsExactly("team/small");
    assertThat(e.schedule().progressed()).isFalse();

    assertThat(e.delete("team/running")).isTrue();
    assertThat(e.inadmissible("cq")).isEmpty();
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/big");
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("3"));
  }

  @Test
  void schedule_queueOrder_priorityThenCreationTime() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "10");
    e.submit(wl("old-low", 0, 0, "1"));
    e.submit(wl("new-high", 9, 5, "1"));
    e.submit(wl("older-low", 0, -5, "1"));
    assertThat(e.pending("cq")).containsExactly("team/new-high", "team/older-low", "team/old-low");
    List<String> order = e.scheduleUntilIdle(10).stream()
        .flatMap(r -> r.admitted().stream()).map(QuotaReservation::workload).toList();
    assertThat(order).containsExactly("team/new-high", "team/older-low", "team/old-low");
  }

  @Test
  void schedule_secondPodSetDoesNotFit_reservesNothing() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "10");
    Workload gang = Workload.builder("team", "gang").queueName("q")
        .podSet("launcher", 1, ResourceList.builder().put("cpu", "2").build())
        .podSet("workers", 4, ResourceList.builder().put("cpu", "3").build())
        .build();
    e.submit(gang);
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending().get("team/gang"))
        .contains("couldn't assign flavors to pod set workers")
        .contains("previously considered podsets requests (2) + current podset request (12) > maximum capacity (10)");
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.ZERO);
  }

  @Test
  void schedule_admission_stampsTheClockAndPodSetUsage() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "10");
    clock.advance(Duration.ofSeconds(42));
    e.submit(Workload.builder("team", "job").queueName("q")
        .podSet("workers", 3, ResourceList.builder().put("cpu", "500m").build()).build());
    QuotaReservation a = e.schedule().admitted().get(0);
    assertThat(a.admittedAt()).isEqualTo(T0.plusSeconds(42));
    assertThat(a.podSets().get(0).resourceUsage().get("cpu")).isEqualTo(Quantity.parse("1500m"));
    assertThat(a.borrowing()).isFalse();
  }

  private AdmissionEngine cohortOf(boolean fairSharing, String... nominals) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .fairSharing(fairSharing);
    for (int i = 0; i < nominals.length; i++) {
      String name = String.valueOf((char) ('a' + i));
      b.clusterQueue(ClusterQueue.builder(name).cohort("all")
          .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.ANY))
          .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", nominals[i]))).build());
      b.localQueue(LocalQueue.of(name, "q", name));
    }
    return b.build();
  }

  private static Workload in(String cq, String name, int createdSecond, String cpu) {
    return Workload.builder(cq, name).queueName("q").creationTime(T0.plusSeconds(createdSecond))
        .request("cpu", cpu).build();
  }

  private static void fill(AdmissionEngine e, String cq, int count) {
    for (int i = 0; i < count; i++) {
      e.assumeAdmitted(in(cq, cq + "-run-" + i, 0, "1"), cq, Map.of("cpu", "default"), T0);
    }
  }

  @Test
  void dominantResourceShare_borrowedOverLendableTimes1000() {
    AdmissionEngine e = cohortOf(true, "3", "3", "3");
    fill(e, "a", 6);
    // borrowed 3 of 9 lendable: 3 * 1000 / 9 = 333.
    assertThat(e.dominantResourceShare("a")).isEqualTo(333);
    assertThat(e.dominantResourceShare("b")).isZero();
  }

  @Test
  void dominantResourceShare_weightDividesTheShare() {
    AdmissionEngine e = AdmissionEngine.builder().resourceFlavors("default").fairSharing(true)
        .clusterQueue(ClusterQueue.builder("heavy").cohort("all").fairSharingWeight(Quantity.parse("2"))
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "5"))).build())
        .clusterQueue(ClusterQueue.builder("zero").cohort("all").fairSharingWeight(Quantity.ZERO)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "5"))).build())
        .build();
    e.assumeAdmitted(in("x", "h", 0, "7"), "heavy", Map.of("cpu", "default"), T0);
    e.assumeAdmitted(in("x", "z", 0, "1"), "zero", Map.of("cpu", "default"), T0);
    assertThat(e.dominantResourceShare("heavy")).isEqualTo(2 * 1000 / 10 * 1000 / 2000);
    assertThat(e.dominantResourceShare("zero")).isZero();
    e.assumeAdmitted(in("x", "z2", 0, "5"), "zero", Map.of("cpu", "default"), T0);
    assertThat(e.dominantResourceShare("zero")).isEqualTo(Integer.MAX_VALUE);
  }

  @Test
  void schedule_fairSharing_admitsTheLowerShareFirst() {
    AdmissionEngine fair = cohortOf(true, "3", "3", "3");
    AdmissionEngine fifo = cohortOf(false, "3", "3", "3");
    for (AdmissionEngine e : List.of(fair, fifo)) {
      fill(e, "a", 5);
      fill(e, "b", 3);
      e.submit(in("a", "a-new", 0, "1"));
      e.submit(in("b", "b-new", 1, "1"));
    }
    assertThat(fair.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("b/b-new");
    assertThat(fifo.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("a/a-new");
  }

  @Test
  void schedule_fairSharing_preemptsFromTheHigherShareOnlyWhileSharesStayOrdered() {
    AdmissionEngine e = cohortOf(true, "4", "4", "2");
    fill(e, "a", 4);
    fill(e, "b", 6);
    // a would borrow 2 (share 200) and b would keep borrowing 1 (share 100): not fair, nothing preempted.
    e.submit(in("a", "a-two", 0, "2"));
    CycleResult r = e.schedule();
    assertThat(r.preempted()).isEmpty();
    e.delete("a/a-two");
    // a would borrow 1 (share 100) and b without a victim borrows 1 (share 100): allowed.
    e.submit(in("a", "a-one", 0, "1"));
    CycleResult r2 = e.schedule();
    assertThat(r2.preempted()).hasSize(1);
    assertThat(r2.preempted().get(0).clusterQueue()).isEqualTo("b");
    assertThat(r2.preempted().get(0).reason()).isEqualTo(PreemptionReason.IN_COHORT_FAIR_SHARING);
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("a/a-one");
  }

  @Test
  void schedule_preemption_victimsGoBackToTheirQueueAndPreemptorIsAdmittedNextCycle() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "4");
    AdmissionEngine withPreemption = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .build();
    for (AdmissionEngine x : List.of(e, withPreemption)) {
      x.assumeAdmitted(wl("low", -1, 0, "3"), "cq", Map.of("cpu", "default"), T0);
      x.submit(wl("urgent", 10, 1, "2"));
    }
    assertThat(e.schedule().preempted()).isEmpty();
    CycleResult r = withPreemption.schedule();
    assertThat(r.preempted()).containsExactly(
        new Preemption("team/low", "cq", "team/urgent", PreemptionReason.IN_CLUSTER_QUEUE, "/cq", "/cq"));
    assertThat(r.pending().get("team/urgent")).contains("pending the preemption of 1 workload(s)");
    assertThat(withPreemption.pending("cq")).containsExactly("team/urgent", "team/low");
    assertThat(withPreemption.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/urgent");
  }

  @Test
  void clusterQueue_invalid_reportsEveryViolationWithObjectFieldAndRule() {
    assertThatThrownBy(() -> ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("default",
            new FlavorResourceQuota("cpu", Quantity.parse("2"), Quantity.parse("1"), Quantity.parse("3"))))
        .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ClusterQueue cq: spec.resourceGroups[0].flavors[0].resources[0].lendingLimit \"3\" "
            + "must be less than or equal to the nominalQuota 2")
        .hasMessageContaining("spec.resourceGroups[0].flavors[0].resources[0].borrowingLimit \"1\" "
            + "must be nil when cohort is empty");
  }

  @Test
  void clusterQueue_flavorMissesACoveredResource_isRejected() {
    assertThatThrownBy(() -> ClusterQueue.builder("cq")
        .resourceGroup(new ResourceGroup(List.of("cpu", "memory"),
            List.of(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1")))))
        .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("spec.resourceGroups[0].flavors[0].resources \"1\" must list as many resources as "
            + "coveredResources [cpu, memory], in its order");
  }

  @Test
  void clusterQueue_preferenceWithoutTryingEveryFlavor_isRejectedNamingTheField() {
    assertThatThrownBy(() -> ClusterQueue.builder("cq")
        .flavorFungibility(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
            FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR, FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING))
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1")))
        .build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ClusterQueue cq: spec.flavorFungibility.preference \"PreemptionOverBorrowing\" "
            + "preference \"PreemptionOverBorrowing\" requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor");
  }

  // Under PreemptionOverBorrowing a flavor's representative mode can be a resource that fits by borrowing while
  // another resource of the flavor needs preemption; the assignment still needs preemption (Kueue's
  // RepresentativeMode is the worst mode of any resource)
  @Test
  void preemptionOverBorrowing_flavorWhoseOtherResourceNeedsPreemption_preempts() {
    ClusterQueue q = ClusterQueue.builder("q").cohort("c")
        .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
        .flavorFungibility(FlavorFungibility.tryEveryFlavor(FlavorFungibility.Preference.PREEMPTION_OVER_BORROWING))
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "0"),
            FlavorResourceQuota.of("memory", "4")))
        .build();
    ClusterQueue lender = ClusterQueue.builder("lender").cohort("c")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"),
            FlavorResourceQuota.of("memory", "0")))
        .build();
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default").clusterQueue(q)
        .clusterQueue(lender).localQueue(LocalQueue.of("team", "lq", "q")).build();
    e.assumeAdmitted(Workload.builder("team", "low").queueName("lq").priority(-1).creationTime(T0)
        .request("memory", "4").build(), "q", Map.of("memory", "default"), T0);
    e.submit(Workload.builder("team", "high").queueName("lq").creationTime(T0).request("cpu", "1")
        .request("memory", "4").build());
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.preempted()).extracting(Preemption::workload).containsExactly("team/low");
    assertThat(r.pending().get("team/high")).contains("insufficient unused quota for memory in flavor default");
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/high");
  }

  @Test
  void workload_invalid_namesObjectFieldAndRule() {
    assertThatThrownBy(() -> Workload.builder("team", "w").podSet("main", -1, ResourceList.EMPTY)
        .podSet("main", 1, ResourceList.EMPTY).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Workload team/w: spec.podSets[0].count \"-1\" must be greater than or equal to 0")
        .hasMessageContaining("spec.podSets[1].name \"main\" Duplicate value");
  }

  // Kueue's implicit pods resource: a ClusterQueue that covers pods counts every pod as one pods unit

  private AdmissionEngine podsQueue(String pods, ClusterQueuePreemption preemption) {
    return AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq").preemption(preemption)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "100"),
                FlavorResourceQuota.of("pods", pods)))
            .build())
        .localQueue(LocalQueue.of("team", "q", "cq"))
        .build();
  }

  private static Workload pods(String name, int priority, int count) {
    return Workload.builder("team", name).queueName("q").priority(priority)
        .podSet("main", count, ResourceList.builder().put("cpu", "1").build()).build();
  }

  @Test
  void schedule_podsQuota_admittedWorkloadsCountTheirPodsAndHoldTheNextOne() {
    AdmissionEngine e = podsQueue("4", ClusterQueuePreemption.NEVER);
    e.submit(pods("first", 0, 3));
    QuotaReservation first = e.schedule().admitted().get(0);
    assertThat(first.podSets().get(0).flavors()).isEqualTo(Map.of("cpu", "default", "pods", "default"));
    assertThat(first.podSets().get(0).resourceUsage())
        .isEqualTo(ResourceList.builder().put("cpu", "3").put("pods", "3").build());
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.parse("3"));

    e.submit(pods("second", 0, 2));
    CycleResult held = e.schedule();
    assertThat(held.admitted()).isEmpty();
    assertThat(held.pending().get("team/second")).isEqualTo("couldn't assign flavors to pod set main: "
        + "insufficient unused quota for pods in flavor default, 1 more needed");

    assertThat(e.delete("team/first")).isTrue();
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/second");
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.parse("2"));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("2"));
  }

  @Test
  void schedule_podsQuotaPreemption_freesTheVictimsPods() {
    AdmissionEngine e = podsQueue("2",
        ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER));
    e.assumeAdmitted(pods("low", -1, 2), "cq", Map.of("cpu", "default", "pods", "default"), T0);
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.parse("2"));
    e.submit(pods("urgent", 10, 1));

    CycleResult r = e.schedule();
    assertThat(r.preempted()).containsExactly(
        new Preemption("team/low", "cq", "team/urgent", PreemptionReason.IN_CLUSTER_QUEUE, "/cq", "/cq"));
    assertThat(r.pending().get("team/urgent"))
        .contains("insufficient unused quota for pods in flavor default, 1 more needed");
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.ZERO);
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/urgent");
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.parse("1"));
  }

  @Test
  void schedule_podsQuotaInACohort_borrowsPodsLikeAnyResource() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("a").cohort("all")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("pods", "2"))).build())
        .clusterQueue(ClusterQueue.builder("b").cohort("all")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("pods", "2"))).build())
        .localQueue(LocalQueue.of("team", "q", "a"))
        .build();
    // the pods of a workload without requests still need quota of pods
    e.submit(Workload.builder("team", "w").queueName("q").podSet("main", 3, ResourceList.EMPTY).build());
    QuotaReservation a = e.schedule().admitted().get(0);
    assertThat(a.borrowing()).isTrue();
    assertThat(a.podSets().get(0).flavors()).isEqualTo(Map.of("pods", "default"));
    assertThat(e.usage("a", "default", "pods")).isEqualTo(Quantity.parse("3"));
  }

  @Test
  void schedule_queueWithoutPodsQuota_countsNoPods() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "4");
    e.submit(Workload.builder("team", "w").queueName("q")
        .podSet("main", 4, ResourceList.builder().put("cpu", "1").build()).build());
    QuotaReservation a = e.schedule().admitted().get(0);
    assertThat(a.podSets().get(0).flavors()).isEqualTo(Map.of("cpu", "default"));
    assertThat(a.podSets().get(0).resourceUsage()).isEqualTo(ResourceList.builder().put("cpu", "4").build());
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.ZERO);
  }

  @Test
  void assumeAdmitted_podsCountedOnlyInTheFlavorGivenForPods() {
    AdmissionEngine e = podsQueue("10", ClusterQueuePreemption.NEVER);
    e.assumeAdmitted(pods("without", 0, 3), "cq", Map.of("cpu", "default"), T0);
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.ZERO);
    QuotaReservation with = e.assumeAdmitted(pods("with", 0, 3), "cq", Map.of("cpu", "default", "pods", "default"),
        T0);
    assertThat(with.podSets().get(0).resourceUsage().get("pods")).isEqualTo(Quantity.parse("3"));
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.parse("3"));

    AdmissionEngine noPods = single(QueueingStrategy.BEST_EFFORT_FIFO, "4");
    assertThatThrownBy(() -> noPods.assumeAdmitted(wl("w", 0, 0, "1"), "cq",
        Map.of("cpu", "default", "pods", "default"), T0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Workload team/w: resource pods in flavor default is not covered by ClusterQueue cq");
  }

  @Test
  void workload_requestingPods_isRejectedAsAReservedKey() {
    assertThatThrownBy(() -> Workload.builder("team", "w")
        .podSet("main", 1, ResourceList.builder().put("cpu", "1").put("pods", "1").build()).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Workload team/w: spec.podSets[0].template.requests.pods \"1\" the key is reserved for "
            + "internal kueue use");
  }

  @Test
  void builder_unknownClusterQueue_isRejected() {
    assertThatThrownBy(() -> AdmissionEngine.builder().localQueue(LocalQueue.of("ns", "q", "nope")).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("LocalQueue ns/q: spec.clusterQueue \"nope\" must name a known ClusterQueue");
  }

  // Kueue keeps a ClusterQueue that names a missing ResourceFlavor inactive until the flavor is created
  @Test
  void clusterQueue_namingAMissingFlavor_isInactiveUntilTheFlavorIsAdded() {
    ClusterQueue cq = ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("gpu-a100", FlavorResourceQuota.of("nvidia.com/gpu", "8"))).build();
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).clusterQueue(cq)
        .localQueue(LocalQueue.of("team", "q", "cq")).build();
    assertThat(e.inactiveReason("cq"))
        .contains("Can't admit new workloads: references missing ResourceFlavor(s): gpu-a100.");
    Workload w = Workload.builder("team", "w").queueName("q").creationTime(T0).request("nvidia.com/gpu", "1").build();
    e.submit(w);
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending()).isEmpty(); // not even tried, as Kueue's queue manager hands out no heads of it
    assertThat(e.pending("cq")).containsExactly("team/w");
    assertThat(e.inadmissible("cq")).isEmpty();
    assertThat(e.scheduleUntilIdle(10)).isEmpty();

    e.addResourceFlavor(ResourceFlavor.of("gpu-a100"));
    assertThat(e.inactiveReason("cq")).isEmpty();
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("team/w");
    assertThatThrownBy(() -> e.addResourceFlavor(ResourceFlavor.of("gpu-a100")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("resource flavor gpu-a100 already exists");
  }

  @Test
  void namespaceSelector_workloadOfANamespaceItDoesNotMatch_waitsParkedUntilTheLabelsChange() {
    LabelSelector eng = new LabelSelector(Map.of(), List.of(
        new io.fleetkit.api.labels.LabelSelectorRequirement("dep", io.fleetkit.api.labels.LabelSelectorOperator.In,
            List.of("eng"))));
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .namespace("eng-alpha", Map.of("dep", "eng"))
        .namespace("sales", Map.of("dep", "sales"))
        .clusterQueue(ClusterQueue.builder("cq").namespaceSelector(eng).queueingStrategy(QueueingStrategy.STRICT_FIFO)
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10"))).build())
        .localQueue(LocalQueue.of("sales", "q", "cq"))
        .localQueue(LocalQueue.of("eng-alpha", "q", "cq"))
        .build();
    e.submit(Workload.builder("sales", "s").queueName("q").creationTime(T0).request("cpu", "1").build());
    e.submit(Workload.builder("eng-alpha", "a").queueName("q").creationTime(T0.plusSeconds(1)).request("cpu", "1")
        .build());
    CycleResult r = e.schedule();
    assertThat(r.admitted()).isEmpty();
    assertThat(r.pending()).containsExactly(Map.entry("sales/s",
        "workload namespace doesn't match ClusterQueue selector"));
    // parked even in a StrictFIFO queue, so the next workload is not blocked
    assertThat(e.inadmissible("cq")).containsExactly("sales/s");
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("eng-alpha/a");

    e.namespaceLabels("sales", Map.of("dep", "sales")); // unchanged: nothing is requeued
    assertThat(e.inadmissible("cq")).containsExactly("sales/s");
    e.namespaceLabels("sales", Map.of("dep", "eng"));
    assertThat(e.inadmissible("cq")).isEmpty();
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("sales/s");
  }

  @Test
  void clusterQueue_invalidNamespaceSelector_isRejectedNamingTheField() {
    LabelSelector bad = new LabelSelector(Map.of(), List.of(new io.fleetkit.api.labels.LabelSelectorRequirement(
        "dep", io.fleetkit.api.labels.LabelSelectorOperator.In, List.of())));
    assertThatThrownBy(() -> ClusterQueue.builder("cq").namespaceSelector(bad)
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "1"))).build())
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("ClusterQueue cq: spec.namespaceSelector.matchExpressions[0].values")
        .hasMessageContaining("must be specified when `operator` is 'In' or 'NotIn'");
  }

  @Test
  void builder_namespaceWithInvalidLabel_isRejected() {
    assertThatThrownBy(() -> AdmissionEngine.builder().namespace("team", Map.of("bad key!", "x")))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("metadata.labels");
  }

  @Test
  void submit_twice_isRejected() {
    AdmissionEngine e = single(QueueingStrategy.BEST_EFFORT_FIFO, "4");
    e.submit(wl("w", 0, 0, "1"));
    assertThatThrownBy(() -> e.submit(wl("w", 0, 0, "1")))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("Workload team/w: already submitted");
  }
}
