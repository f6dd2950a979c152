package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.ClusterQueuePreemption;
import io.fleetkit.queueing.CycleResult;
import io.fleetkit.queueing.FlavorFungibility;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.Workload;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * When the scheduler records a head's {@link FlavorScanProgress}, keeps it, clears it, and what a requeue does with it
 * (Kueue's {@code pkg/scheduler/scheduler.go} {@code recordAssignment}, {@code markSkipped}, {@code
 * markPreemptionOutcome}, and {@code pkg/cache/queue/cluster_queue.go} {@code requeueIfNotPresent}). The requeue cases
 * are kueue {@code cluster_queue_test.go} (commit ff69552e) TestBestEffortFIFORequeueIfNotPresent "didn't fit but
 * pending flavors" and "didn't fit and no pending flavors"; the preemption case TestEntryMarkPreemptionOutcome "pending
 * preemption"; the skip case TestEntryMarkSkipped "with the gate the assignment is kept so the scan resumes".
 */
final class FlavorScanResumeTest {
  private static final List<String> FLAVORS = List.of("one", "two", "g");

  private static Workload twoPodSets() {
    return Workload.builder("default", "wl").queueName("cq").creationTime(KueueHarness.NOW)
        .podSet(PodSet.of("a", 1, ResourceList.builder().put("cpu", "1").build()))
        .podSet(PodSet.of("b", 1, ResourceList.builder().put("example.com/gpu", "2").build()))
        .build();
  }

  /**
   * Pod set {@code a} fits in flavor {@code one}, the first of two, and the search stops there; pod set {@code b} asks
   * for more GPUs than the queue has. The workload is requeued at once, active, with flavor {@code two} left to try;
   * the next cycle resumes {@code a}'s search at {@code two}, the last flavor, and with nothing left the workload is
   * parked.
   */
  @Test
  void schedule_noFitWithFlavorsLeft_requeuesActive_thenResumesAndParks() {
    KueueHarness h = new KueueHarness(FLAVORS, List.of(ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "10")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "10")))
        .resourceGroup(FlavorQuotas.of("g", FlavorResourceQuota.of("example.com/gpu", "1")))
        .build()), false);
    QueueScheduler s = h.scheduler;
    s.submit(twoPodSets());

    CycleResult first = s.schedule();

    assertThat(first.admitted()).isEmpty();
    FlavorScanProgress p = s.flavorScanProgress("default/wl");
    assertThat(p).isNotNull();
    assertThat(p.lastTriedFlavorIdx()).containsExactly(Map.of("cpu", 0), Map.of());
    assertThat(s.inadmissible("cq")).as("requeued active: a flavor is left to try").isEmpty();
    assertThat(s.pending("cq")).containsExactly("default/wl");
    assertThat(s.mayProgress(first)).isTrue();

    s.schedule();

    p = s.flavorScanProgress("default/wl");
    assertThat(p).isNotNull();
    assertThat(p.lastTriedFlavorIdx()).as("the search resumed at two, the last flavor")
        .containsExactly(Map.of("cpu", FlavorScanProgress.START_OVER), Map.of());
    assertThat(s.inadmissible("cq")).as("parked: no flavor left to try").containsExactly("default/wl");
  }

  /** A head whose preemptions were issued starts its next search at the first flavor. */
  @Test
  void schedule_preemptionIssued_clearsTheProgress() {
    KueueHarness h = preemptionHarness(QueuePreemptionPolicy.LOWER_PRIORITY);
    h.scheduler.submit(high());

    CycleResult r = h.scheduler.schedule();

    assertThat(r.preempted()).hasSize(1);
    assertThat(h.scheduler.flavorScanProgress("default/high")).isNull();
  }

  /** Without candidates the search went on to the last flavor: the progress is kept, and says start over. */
  @Test
  void schedule_preemptionWithoutCandidates_keepsTheProgress() {
    KueueHarness h = preemptionHarness(QueuePreemptionPolicy.NEVER);
    h.scheduler.submit(high());

    CycleResult r = h.scheduler.schedule();

    assertThat(r.preempted()).isEmpty();
    FlavorScanProgress p = h.scheduler.flavorScanProgress("default/high");
    assertThat(p).isNotNull();
    assertThat(p.lastTriedFlavorIdx()).containsExactly(Map.of("cpu", FlavorScanProgress.START_OVER));
    assertThat(h.scheduler.inadmissible("cq")).containsExactly("default/high");
  }

  /**
   * Two heads stop their searches on flavor {@code one}, borrowing the lender's spare; the first admitted takes it, the
   * second no longer fits and is skipped keeping its progress, and the next cycle resumes it at {@code two}.
   */
  @Test
  void schedule_skippedHead_keepsTheProgress_andResumesAfterIt() {
    KueueHarness h = new KueueHarness(FLAVORS, List.of(borrower("cq-a"), borrower("cq-b"),
        ClusterQueue.builder("lender").cohort("c")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2")),
                FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "2")))
            .build()), false);
    QueueScheduler s = h.scheduler;
    s.submit(Workload.builder("default", "a").queueName("cq-a").creationTime(KueueHarness.NOW).request("cpu", "2")
        .build());
    s.submit(Workload.builder("default", "b").queueName("cq-b").creationTime(KueueHarness.NOW.plusSeconds(1))
        .request("cpu", "2").build());

    CycleResult first = s.schedule();

    assertThat(first.admitted()).extracting(r -> r.workload()).containsExactly("default/a");
    FlavorScanProgress p = s.flavorScanProgress("default/b");
    assertThat(p).isNotNull();
    assertThat(p.lastTriedFlavorIdx()).containsExactly(Map.of("cpu", 0));

    CycleResult second = s.schedule();

    assertThat(second.admitted()).singleElement()
        .satisfies(r -> assertThat(r.podSets().get(0).flavors()).containsEntry("cpu", "two"));
    assertThat(s.flavorScanProgress("default/b")).as("admitted: no longer pending").isNull();
  }

  private static ClusterQueue borrower(String name) {
    return ClusterQueue.builder(name).cohort("c")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "0")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "0")))
        .build();
  }

  private static KueueHarness preemptionHarness(QueuePreemptionPolicy withinClusterQueue) {
    KueueHarness h = new KueueHarness(FLAVORS, List.of(ClusterQueue.builder("cq")
        .preemption(ClusterQueuePreemption.of(withinClusterQueue, QueuePreemptionPolicy.NEVER))
        .flavorFungibility(new FlavorFungibility(FlavorFungibility.WhenCanBorrow.BORROW,
            FlavorFungibility.WhenCanPreempt.PREEMPT))
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "2")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "2")))
        .build()), false);
    h.admit(KueueHarness.wl("low-1", -1, "cpu", "2"), "cq", "cpu", "one");
    h.admit(KueueHarness.wl("low-2", -1, "cpu", "2"), "cq", "cpu", "two");
    return h;
  }

  private static Workload high() {
    return Workload.builder("default", "high").queueName("cq").priority(1).creationTime(KueueHarness.NOW)
        .request("cpu", "2").build();
  }
}
