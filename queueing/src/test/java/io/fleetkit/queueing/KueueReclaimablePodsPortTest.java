package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Kueue's reclaimable pods ({@code status.reclaimablePods}) through the {@link AdmissionEngine}, with cases ported
 * from kubernetes-sigs/kueue (commit ff69552e):
 *
 * <ul>
 *   <li>{@code pkg/scheduler/flavorassigner/flavorassigner_test.go} TestAssignFlavors "with reclaimable pods;
 *       reclaimablePods on";
 *   <li>{@code pkg/workload/workload_test.go} TestNewInfo "pending with reclaim; reclaimablePods on", "admitted with
 *       reclaim; reclaimablePods on", "admitted with reclaim and increased reclaim" (the requests quota counts);
 *   <li>{@code pkg/webhooks/workload_webhook_test.go} TestValidateWorkload "invalid reclaimablePods" and
 *       TestValidateWorkloadUpdate "reclaimable pod count can change up", "reclaimable pod count cannot change down";
 *   <li>{@code pkg/cache/queue/cluster_queue_test.go} TestClusterQueueImpl "update reclaimable pods in inadmissible".
 * </ul>
 *
 * <p>Kueue's TestNewInfo states the requests of a workload object; here the same workload goes through the engine and
 * the requests are read where they act: the admission a pending workload gets, and the ClusterQueue's usage an
 * admitted one holds.
 */
final class KueueReclaimablePodsPortTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private AdmissionEngine engine(FlavorResourceQuota... quotas) {
    return AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("default", quotas)).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .build();
  }

  private static Workload workload(String name, int count, ResourceList perPod) {
    return Workload.builder("ns", name).queueName("lq").creationTime(T0).podSet("main", count, perPod).build();
  }

  private static ResourceList cpu(String q) {
    return ResourceList.builder().put("cpu", q).build();
  }

  // flavorassigner_test.go "with reclaimable pods; reclaimablePods on": 5 pods of 1 CPU, 2 reclaimable, against
  // a queue of 3 pods: Fit, 3 pods of the default flavor, usage cpu 3 and pods 3
  @Test
  void withReclaimablePods_assignsThePodsLeft() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("pods", "3"), FlavorResourceQuota.of("cpu", "10"));
    e.submit(workload("wl", 5, cpu("1")));
    e.setReclaimablePods("ns/wl", Map.of("main", 2));
    CycleResult r = e.schedule();
    assertThat(r.admitted()).hasSize(1);
    PodSetAssignment a = r.admitted().get(0).podSets().get(0);
    assertThat(a.count()).isEqualTo(3);
    assertThat(a.flavors()).isEqualTo(Map.of("cpu", "default", "pods", "default"));
    assertThat(a.resourceUsage()).isEqualTo(ResourceList.builder().put("cpu", "3").put("pods", "3").build());
    assertThat(e.usage("cq", "default", "pods")).isEqualTo(Quantity.parse("3"));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("3"));
  }

  @Test
  void withoutReclaimablePods_theSameWorkloadDoesNotFit() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("pods", "3"), FlavorResourceQuota.of("cpu", "10"));
    e.submit(workload("wl", 5, cpu("1")));
    assertThat(e.schedule().admitted()).isEmpty();
  }

  // workload_test.go "pending with reclaim; reclaimablePods on": 5 pods of 10m CPU and 512Ki, 2 reclaimable: the
  // requests are 3 pods' (30m, 1536Ki)
  @Test
  void pendingWithReclaim_requestsThePodsLeft() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "1"), FlavorResourceQuota.of("memory", "1Gi"));
    e.submit(workload("wl", 5, ResourceList.builder().put("cpu", "10m").put("memory", "512Ki").build()));
    e.setReclaimablePods("ns/wl", Map.of("main", 2));
    PodSetAssignment a = e.schedule().admitted().get(0).podSets().get(0);
    assertThat(a.count()).isEqualTo(3);
    assertThat(a.resourceUsage().milliValue("cpu")).isEqualTo(30);
    assertThat(a.resourceUsage().milliValue("memory")).isEqualTo(3L * 512 * 1024 * 1000);
  }

  // workload_test.go "admitted with reclaim; reclaimablePods on" (admitted with 3 pods, 2 of 5 reclaimable: the
  // admission's usage, 30m and 30Ki) and "admitted with reclaim and increased reclaim" (3 of 5 reclaimable: the
  // admission's 3 pods scaled to 2, 20m and 20Ki)
  @Test
  void admittedWithReclaim_holdsTheAdmissionScaledToThePodsLeft() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "1"), FlavorResourceQuota.of("memory", "1Gi"));
    e.submit(workload("wl", 5, ResourceList.builder().put("cpu", "10m").put("memory", "10Ki").build()));
    e.setReclaimablePods("ns/wl", Map.of("main", 2));
    QuotaReservation admitted = e.schedule().admitted().get(0);
    assertThat(admitted.podSets().get(0).count()).isEqualTo(3);
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("30m"));
    assertThat(e.usage("cq", "default", "memory")).isEqualTo(Quantity.parse("30Ki"));

    assertThat(e.setReclaimablePods("ns/wl", Map.of("main", 3))).isTrue();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("20m"));
    assertThat(e.usage("cq", "default", "memory")).isEqualTo(Quantity.parse("20Ki"));
    // the admission itself is immutable, as Kueue's status.admission
    assertThat(e.admission("ns/wl")).contains(admitted);
    assertThat(e.reclaimablePods("ns/wl")).isEqualTo(Map.of("main", 3));
  }

  @Test
  void admittedWholeThenReclaimed_holdsThePodsLeft() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "10"));
    e.submit(workload("wl", 4, cpu("1")));
    e.schedule();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("4"));
    e.setReclaimablePods("ns/wl", Map.of("main", 1));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("3"));
    e.setReclaimablePods("ns/wl", Map.of("main", 4));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.ZERO);
    assertThat(e.delete("ns/wl")).isTrue();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.ZERO);
    assertThat(e.reclaimablePods("ns/wl")).isEmpty();
  }

  // the freed quota admits a workload parked for want of it in the next cycle (Kueue's workload controller queues
  // the inadmissible workloads of the cohort when an admitted workload's reclaimable pods change)
  @Test
  void reclaimOfAnAdmittedWorkload_admitsAParkedOneNextCycle() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "4"));
    e.submit(workload("big", 4, cpu("1")));
    e.schedule();
    clock.advance(java.time.Duration.ofSeconds(1));
    e.submit(Workload.builder("ns", "next").queueName("lq").creationTime(T0.plusSeconds(1))
        .podSet("main", 2, cpu("1")).build());
    assertThat(e.schedule().admitted()).isEmpty();
    assertThat(e.inadmissible("cq")).containsExactly("ns/next");
    e.setReclaimablePods("ns/big", Map.of("main", 2));
    assertThat(e.inadmissible("cq")).isEmpty();
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("ns/next");
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("4"));
  }

  // cluster_queue_test.go "update reclaimable pods in inadmissible": an inadmissible workload whose reclaimable pods
  // change is active again (pending 1, in the active heap)
  @Test
  void updateReclaimablePodsInInadmissible_makesItActive() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "1"));
    e.submit(workload("w", 2, cpu("1")));
    assertThat(e.schedule().admitted()).isEmpty();
    assertThat(e.inadmissible("cq")).containsExactly("ns/w");
    e.setReclaimablePods("ns/w", Map.of("main", 1));
    assertThat(e.inadmissible("cq")).isEmpty();
    assertThat(e.pending("cq")).containsExactly("ns/w");
    assertThat(e.pendingCount()).isEqualTo(1);
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("ns/w");
  }

  // workload_webhook_test.go "invalid reclaimablePods": ps1 of 3 pods with 4 reclaimable, ps2 unknown
  @Test
  void invalidReclaimablePods() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "10"));
    e.submit(Workload.builder("ns", "wl").queueName("lq").creationTime(T0).podSet("ps1", 3, cpu("1")).build());
    assertThatThrownBy(() -> e.setReclaimablePods("ns/wl", Map.of("ps1", 4, "ps2", 1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Workload ns/wl: status.reclaimablePods[ps1].count \"4\" should be less or equal to 3")
        .hasMessageContaining("status.reclaimablePods[ps2].name \"ps2\" Unsupported value: supported values: \"ps1\"");
    assertThat(e.reclaimablePods("ns/wl")).isEmpty();
  }

  @Test
  void negativeCount_isRefused() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "10"));
    e.submit(workload("wl", 3, cpu("1")));
    assertThatThrownBy(() -> e.setReclaimablePods("ns/wl", Map.of("main", -1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.reclaimablePods[main].count \"-1\" must be greater than or equal to 0");
  }

  private AdmissionEngine twoPodSetsAdmitted() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "10"));
    e.submit(Workload.builder("ns", "wl").queueName("lq").creationTime(T0).podSet("ps1", 3, cpu("1"))
        .podSet("ps2", 3, cpu("1")).build());
    assertThat(e.schedule().admitted()).hasSize(1);
    return e;
  }

  // workload_webhook_test.go "reclaimable pod count can change up": with quota, {ps1: 1} to {ps1: 2, ps2: 1}
  @Test
  void reclaimablePodCountCanChangeUp() {
    AdmissionEngine e = twoPodSetsAdmitted();
    e.setReclaimablePods("ns/wl", Map.of("ps1", 1));
    assertThat(e.setReclaimablePods("ns/wl", Map.of("ps1", 2, "ps2", 1))).isTrue();
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("3"));
  }

  // workload_webhook_test.go "reclaimable pod count cannot change down": with quota, {ps1: 2, ps2: 1} to {ps1: 1}:
  // ps1's count is invalid, ps2's entry required
  @Test
  void reclaimablePodCountCannotChangeDown() {
    AdmissionEngine e = twoPodSetsAdmitted();
    e.setReclaimablePods("ns/wl", Map.of("ps1", 2, "ps2", 1));
    assertThatThrownBy(() -> e.setReclaimablePods("ns/wl", Map.of("ps1", 1)))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("status.reclaimablePods[ps1].count \"1\" cannot be less than 2")
        .hasMessageContaining("status.reclaimablePods[ps2] Required value: cannot be removed");
    assertThat(e.reclaimablePods("ns/wl")).isEqualTo(Map.of("ps1", 2, "ps2", 1));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("3"));
  }

  // without quota the counts may go down: the rule holds while the workload holds quota
  @Test
  void pendingWorkload_countsMayGoDown() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "1"));
    e.submit(workload("wl", 3, cpu("1")));
    e.setReclaimablePods("ns/wl", Map.of("main", 2));
    assertThat(e.setReclaimablePods("ns/wl", Map.of())).isTrue();
    assertThat(e.reclaimablePods("ns/wl")).isEmpty();
    assertThat(e.schedule().admitted()).isEmpty(); // 3 pods again, against 1 CPU
  }

  // a pod set with every pod reclaimable asks for nothing (Kueue admits it with count 0)
  @Test
  void everyPodOfAPodSetReclaimable_asksForNothingOfIt() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "2"));
    e.submit(Workload.builder("ns", "wl").queueName("lq").creationTime(T0).podSet("done", 4, cpu("1"))
        .podSet("rest", 2, cpu("1")).build());
    e.setReclaimablePods("ns/wl", Map.of("done", 4));
    QuotaReservation r = e.schedule().admitted().get(0);
    assertThat(r.podSets()).extracting(PodSetAssignment::name, PodSetAssignment::count)
        .containsExactly(tuple("done", 0), tuple("rest", 2));
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("2"));
  }

  @Test
  void unknownWorkload_isRefused() {
    AdmissionEngine e = engine(FlavorResourceQuota.of("cpu", "1"));
    assertThatThrownBy(() -> e.setReclaimablePods("ns/none", Map.of("main", 1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("Workload ns/none: not found");
  }

  // an evicted workload is queued again asking for the pods left: preempted after 1 of its 4 pods became
  // reclaimable, it is admitted again with 3 pods once the preemptor is gone
  @Test
  void evictedWorkload_isQueuedAgainWithThePodsLeft() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq")
            .preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY, QueuePreemptionPolicy.NEVER))
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "4"))).build())
        .localQueue(LocalQueue.of("ns", "lq", "cq"))
        .build();
    e.submit(workload("low", 4, cpu("1")));
    e.schedule();
    e.setReclaimablePods("ns/low", Map.of("main", 1));
    e.submit(Workload.builder("ns", "high").queueName("lq").priority(100).creationTime(T0)
        .podSet("main", 4, cpu("1")).build());
    e.scheduleUntilIdle(10);
    assertThat(e.admission("ns/high")).isPresent();
    assertThat(e.admission("ns/low")).isEmpty();
    assertThat(e.reclaimablePods("ns/low")).isEqualTo(Map.of("main", 1));
    e.delete("ns/high");
    e.scheduleUntilIdle(10);
    assertThat(e.admission("ns/low").orElseThrow().podSets().get(0).count()).isEqualTo(3);
    assertThat(e.usage("cq", "default", "cpu")).isEqualTo(Quantity.parse("3"));
  }
}
