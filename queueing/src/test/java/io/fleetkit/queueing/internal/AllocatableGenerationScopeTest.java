package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.CheckState;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.CycleResult;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.Workload;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A change in one cohort tree advances the {@link CqState#allocatableGeneration} of that tree's queues only (Kueue's
 * cache recomputes the resource nodes of the changed tree), so a pending workload of another tree keeps its {@link
 * FlavorScanProgress} and resumes its flavor search after the last flavor it tried. A status write of a workload with
 * quota (its admission, an admission check's state) advances its queue's generation, as Kueue's cache replaces the
 * workload ({@code pkg/cache/scheduler/clusterqueue.go} {@code addOrUpdateWorkload}).
 */
final class AllocatableGenerationScopeTest {
  private static ClusterQueue cqX() {
    return ClusterQueue.builder("cq-x").cohort("x")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "10")),
            FlavorQuotas.of("two", FlavorResourceQuota.of("cpu", "10")))
        .resourceGroup(FlavorQuotas.of("g", FlavorResourceQuota.of("example.com/gpu", "1")))
        .build();
  }

  private static ClusterQueue cqY(String cpu) {
    return ClusterQueue.builder("cq-y").cohort("y")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", cpu))).build();
  }

  /**
   * Cycle 1: {@code wl}'s pod set {@code a} stops its search on flavor {@code one}, pod set {@code b} never fits, and
   * it is requeued with flavor {@code two} left. Cycle 2 tries a higher-priority workload of {@code cq-x} instead,
   * which fits nowhere, is parked and then deleted (so that no requeue of {@code event} makes it the head again).
   * Then {@code event} happens; cycle 3 tries {@code wl} again with progress two cycles old.
   *
   * @return the flavor index {@code wl}'s search of {@code cpu} stopped on in cycle 3
   */
  private static int lastTriedAfter(Consumer<QueueScheduler> event) {
    KueueHarness h = new KueueHarness(List.of("one", "two", "g"), List.of(cqX(), cqY("10")), false);
    QueueScheduler s = h.scheduler;
    s.submit(Workload.builder("default", "wl").queueName("cq-x").creationTime(KueueHarness.NOW)
        .podSet(PodSet.of("a", 1, ResourceList.builder().put("cpu", "1").build()))
        .podSet(PodSet.of("b", 1, ResourceList.builder().put("example.com/gpu", "2").build()))
        .build());
    s.schedule();
    assertThat(s.flavorScanProgress("default/wl").lastTriedFlavorIdx()).containsExactly(Map.of("cpu", 0), Map.of());

    s.submit(Workload.builder("default", "blocker").queueName("cq-x").priority(10)
        .creationTime(KueueHarness.NOW.plusSeconds(1)).request("cpu", "100").build());
    CycleResult second = s.schedule();
    assertThat(second.admitted()).as("nothing admitted in cq-x: an admission advances its generation").isEmpty();
    assertThat(s.inadmissible("cq-x")).containsExactly("default/blocker");
    assertThat(s.delete("default/blocker")).as("a pending workload's deletion leaves the generation").isTrue();

    event.accept(s);
    s.schedule();

    return s.flavorScanProgress("default/wl").lastTriedFlavorIdx().get(0).get("cpu");
  }

  @Test
  void putClusterQueue_otherTreeQuotaChanged_keepsTheProgress_searchResumesAtTwo() {
    assertThat(lastTriedAfter(s -> s.putClusterQueue(cqY("20"))))
        .as("resumed after flavor one: two, the last, was tried").isEqualTo(FlavorScanProgress.START_OVER);
  }

  @Test
  void putCohort_otherTree_keepsTheProgress() {
    assertThat(lastTriedAfter(s -> s.putCohort(Cohort.of("y", null)))).isEqualTo(FlavorScanProgress.START_OVER);
  }

  @Test
  void removeClusterQueue_otherTree_keepsTheProgress() {
    assertThat(lastTriedAfter(s -> s.removeClusterQueue("cq-y"))).isEqualTo(FlavorScanProgress.START_OVER);
  }

  @Test
  void putClusterQueue_sameTreeQueueAdded_discardsTheProgress_searchStartsOver() {
    assertThat(lastTriedAfter(s -> s.putClusterQueue(ClusterQueue.builder("cq-x2").cohort("x")
        .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "1"))).build())))
        .as("started over at flavor one").isEqualTo(0);
  }

  @Test
  void putClusterQueue_sameSpec_keepsTheProgress() {
    assertThat(lastTriedAfter(s -> s.putClusterQueue(cqX()))).isEqualTo(FlavorScanProgress.START_OVER);
  }

  @Test
  void schedule_admissionAndCheckStateWrites_advanceTheQueuesGeneration() {
    KueueHarness h = new KueueHarness(List.of("one", "two", "g"), List.of(
        ClusterQueue.builder("cq-x").cohort("x").admissionChecks("chk")
            .resourceGroup(FlavorQuotas.of("one", FlavorResourceQuota.of("cpu", "10"))).build(),
        cqY("10")), false);
    QueueScheduler s = h.scheduler;
    s.putAdmissionCheck(AdmissionCheck.of("chk", "controller"));
    s.submit(Workload.builder("default", "w").queueName("cq-x").creationTime(KueueHarness.NOW).request("cpu", "1")
        .build());
    long x = s.queue("cq-x").allocatableGeneration;
    long y = s.queue("cq-y").allocatableGeneration;

    CycleResult r = s.schedule();

    assertThat(r.admitted()).hasSize(1);
    assertThat(s.queue("cq-x").allocatableGeneration).as("the reservation's write").isEqualTo(x + 1);
    s.setCheckStates("default/w", List.of(AdmissionCheckState.of("chk", CheckState.READY, "ok")));
    assertThat(s.queue("cq-x").allocatableGeneration).as("the check's write").isEqualTo(x + 2);
    s.setCheckStates("default/w", List.of(AdmissionCheckState.of("chk", CheckState.READY, "ok")));
    assertThat(s.queue("cq-x").allocatableGeneration).as("no change, no write").isEqualTo(x + 2);
    assertThat(s.queue("cq-y").allocatableGeneration).isEqualTo(y);
  }
}
