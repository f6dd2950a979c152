package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Priority changes in the engine ({@link AdmissionEngine#updatePriority}, {@link
 * AdmissionEngine#putWorkloadPriorityClass}). The class cases are ported from kubernetes-sigs/kueue {@code
 * pkg/controller/core/workloadpriorityclass_controller_test.go} (commit ff69552e): {@code
 * TestWorkloadPriorityClassReconcile} (4 of 8) and {@code TestWorkloadPriorityClassPredicates} (4 of 5), each named
 * after its case; the others are listed in docs/conformance.md.
 */
final class WorkloadPriorityEngineTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static AdmissionEngine engine(String cpus, QueuePreemptionPolicy within) {
    return AdmissionEngine.builder().resourceFlavors("default")
        .clusterQueue(ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("default",
                FlavorResourceQuota.of("cpu", cpus)))
            .preemption(ClusterQueuePreemption.of(within, QueuePreemptionPolicy.NEVER)).build())
        .localQueue(LocalQueue.of("default", "lq", "cq"))
        .workloadPriorityClass(WorkloadPriorityClass.of("high", 1000))
        .build();
  }

  private static Workload wl(String name, WorkloadPriority p, int second) {
    return Workload.builder("default", name).queueName("lq").priority(p).creationTime(T0.plusSeconds(second))
        .request("cpu", "1").build();
  }

  private static WorkloadPriority high(int value) {
    return new WorkloadPriority(value, PriorityClassSource.WORKLOAD_PRIORITY_CLASS, "high");
  }

  @Test
  void updatePriority_pendingWorkload_movesToItsNewPlace() {
    AdmissionEngine e = engine("0", QueuePreemptionPolicy.NEVER);
    e.submit(wl("x", WorkloadPriority.of(1), 1));
    e.submit(wl("y", WorkloadPriority.of(2), 2));
    e.submit(wl("z", WorkloadPriority.of(3), 3));
    assertThat(e.pending("cq")).containsExactly("default/z", "default/y", "default/x");

    assertThat(e.updatePriority("default/x", WorkloadPriority.of(5))).isTrue();
    assertThat(e.pending("cq")).containsExactly("default/x", "default/z", "default/y");
    assertThat(e.updatePriority("default/x", WorkloadPriority.of(5))).isFalse();
    // equal priorities: the older first
    e.updatePriority("default/y", WorkloadPriority.of(5));
    assertThat(e.pending("cq")).containsExactly("default/x", "default/y", "default/z");
  }

  @Test
  void updatePriority_parkedWorkload_isActiveAgain() {
    AdmissionEngine e = engine("0", QueuePreemptionPolicy.NEVER);
    e.submit(wl("x", WorkloadPriority.of(1), 1));
    e.schedule();
    assertThat(e.inadmissible("cq")).containsExactly("default/x");

    e.updatePriority("default/x", WorkloadPriority.of(2));
    assertThat(e.inadmissible("cq")).isEmpty();
    assertThat(e.pending("cq")).containsExactly("default/x");
    assertThat(e.workload("default/x").orElseThrow().priority()).isEqualTo(2);
  }

  @Test
  void updatePriority_admittedWorkloadLowered_isPreemptedByTheParkedHead() {
    AdmissionEngine e = engine("1", QueuePreemptionPolicy.LOWER_PRIORITY);
    e.submit(wl("a", WorkloadPriority.of(5), 1));
    e.schedule();
    e.submit(wl("b", WorkloadPriority.of(3), 2));
    assertThat(e.scheduleUntilIdle(10)).allSatisfy(r -> assertThat(r.preempted()).isEmpty());
    assertThat(e.inadmissible("cq")).containsExactly("default/b");

    assertThat(e.updatePriority("default/a", WorkloadPriority.of(1))).isTrue();
    assertThat(e.admission("default/a")).isPresent(); // it keeps its quota
    assertThat(e.inadmissible("cq")).isEmpty(); // the parked head is queued again
    CycleResult r = e.schedule();
    assertThat(r.preempted()).extracting(Preemption::workload, Preemption::preemptor)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("default/a", "default/b"));
    e.schedule();
    assertThat(e.admission("default/b")).isPresent();
  }

  @Test
  void updatePriority_admittedWorkloadRaised_isNoLongerAVictim() {
    AdmissionEngine e = engine("1", QueuePreemptionPolicy.LOWER_PRIORITY);
    e.submit(wl("a", WorkloadPriority.of(1), 1));
    e.schedule();
    e.updatePriority("default/a", WorkloadPriority.of(9));
    e.submit(wl("b", WorkloadPriority.of(3), 2));
    assertThat(e.scheduleUntilIdle(10)).allSatisfy(r -> assertThat(r.preempted()).isEmpty());
    assertThat(e.admission("default/a")).isPresent();
  }

  @Test
  void updatePriority_unknownWorkload_isRefused() {
    assertThatThrownBy(() -> engine("1", QueuePreemptionPolicy.NEVER).updatePriority("default/nope",
        WorkloadPriority.of(1))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("default/nope");
  }

  @Test
  void builder_workloadPriorityClassTwice_isRefusedNamingTheOldValue() {
    assertThatThrownBy(() -> AdmissionEngine.builder().workloadPriorityClass(WorkloadPriorityClass.of("a", 1))
        .workloadPriorityClass(WorkloadPriorityClass.of("a", 2)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("value 1, then 2");
  }

  @Test
  void workloadPriorityClass_validation() {
    assertThatThrownBy(() -> WorkloadPriorityClass.of("Bad_Name", 1))
        .hasMessageContaining("WorkloadPriorityClass Bad_Name: metadata.name");
    assertThatThrownBy(() -> new WorkloadPriorityClass("ok", 1, "x".repeat(2049)))
        .hasMessageContaining("description").hasMessageContaining("2048");
    assertThat(new WorkloadPriorityClass("ok", Integer.MIN_VALUE, "x".repeat(2048)).value())
        .isEqualTo(Integer.MIN_VALUE);
  }

  // TestWorkloadPriorityClassReconcile

  @Test
  void reconcileUpdatesWorkloadPriorityWhenWpcPriorityChanges() {
    AdmissionEngine e = engine("0", QueuePreemptionPolicy.NEVER);
    e.submit(wl("wl1", high(100), 1));
    assertThat(e.putWorkloadPriorityClass(WorkloadPriorityClass.of("high", 1001))).containsExactly("default/wl1");
    assertThat(e.workload("default/wl1").orElseThrow().priorityInfo()).isEqualTo(high(1001));
  }

  @Test
  void reconcileUpdatesMultipleWorkloads() {
    AdmissionEngine e = engine("1", QueuePreemptionPolicy.NEVER);
    e.submit(wl("wl1", high(100), 1));
    e.schedule(); // wl1 holds quota, wl2 is pending: both follow the class
    e.submit(wl("wl2", high(200), 2));
    e.submit(wl("other", WorkloadPriority.of(5), 3));
    assertThat(e.putWorkloadPriorityClass(WorkloadPriorityClass.of("high", 2000)))
        .containsExactly("default/wl1", "default/wl2");
    assertThat(e.workload("default/wl1").orElseThrow().priority()).isEqualTo(2000);
    assertThat(e.workload("default/wl2").orElseThrow().priority()).isEqualTo(2000);
    assertThat(e.workload("default/other").orElseThrow().priority()).isEqualTo(5);
  }

  @Test
  void reconcileSkipsWorkloadsWithUpToDatePriority() {
    AdmissionEngine e = engine("0", QueuePreemptionPolicy.NEVER);
    e.submit(wl("wl1", high(1000), 1));
    e.removeWorkloadPriorityClass("high");
    assertThat(e.putWorkloadPriorityClass(WorkloadPriorityClass.of("high", 1000))).isEmpty();
    assertThat(e.workload("default/wl1").orElseThrow().priorityInfo()).isEqualTo(high(1000));
  }

  @Test
  void reconcileSucceedsWhenNoWorkloadsUseTheWpc() {
    AdmissionEngine e = engine("0", QueuePreemptionPolicy.NEVER);
    e.submit(wl("wl1", WorkloadPriority.of(3), 1));
    assertThat(e.putWorkloadPriorityClass(WorkloadPriorityClass.of("unused", 1000))).isEmpty();
    assertThat(e.workloadPriorityClass("unused")).contains(WorkloadPriorityClass.of("unused", 1000));
  }

  // TestWorkloadPriorityClassPredicates, observed on a workload whose priority drifted from its class's value

  private static AdmissionEngine drifted() {
    AdmissionEngine e = engine("0", QueuePreemptionPolicy.NEVER);
    e.submit(wl("wl1", high(50), 1));
    return e;
  }

  @Test
  void createEventShouldTriggerReconcile() {
    AdmissionEngine e = drifted();
    e.removeWorkloadPriorityClass("high");
    e.putWorkloadPriorityClass(WorkloadPriorityClass.of("high", 1000));
    assertThat(e.workload("default/wl1").orElseThrow().priority()).isEqualTo(1000);
  }

  @Test
  void deleteEventShouldNotTriggerReconcile() {
    AdmissionEngine e = drifted();
    assertThat(e.removeWorkloadPriorityClass("high")).isTrue();
    assertThat(e.workload("default/wl1").orElseThrow().priority()).isEqualTo(50);
    assertThat(e.workloadPriorityClass("high")).isEmpty();
  }

  @Test
  void updateEventWithChangedPriorityShouldTriggerReconcile() {
    AdmissionEngine e = drifted();
    e.putWorkloadPriorityClass(WorkloadPriorityClass.of("high", 2000));
    assertThat(e.workload("default/wl1").orElseThrow().priority()).isEqualTo(2000);
  }

  @Test
  void updateEventWithUnchangedPriorityShouldNotTriggerReconcile() {
    AdmissionEngine e = drifted();
    assertThat(e.putWorkloadPriorityClass(new WorkloadPriorityClass("high", 1000, "new description"))).isEmpty();
    assertThat(e.workload("default/wl1").orElseThrow().priority()).isEqualTo(50);
    assertThat(e.workloadPriorityClass("high").orElseThrow().description()).isEqualTo("new description");
  }

  @Test
  void putWorkloadPriorityClass_admittedWorkload_keepsItsAdmission() {
    AdmissionEngine e = engine("1", QueuePreemptionPolicy.NEVER);
    e.submit(wl("a", high(1000), 1));
    e.schedule();
    e.putWorkloadPriorityClass(WorkloadPriorityClass.of("high", 10));
    assertThat(e.admission("default/a")).isPresent();
    assertThat(e.workload("default/a").orElseThrow().priorityInfo()).isEqualTo(high(10));
    assertThat(e.usage("cq", "default", "cpu").toString()).isEqualTo("1");
    assertThat(e.admitted("cq")).hasSize(1);
  }
}
