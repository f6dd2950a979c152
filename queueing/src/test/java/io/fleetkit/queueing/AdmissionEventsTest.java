package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The events the engine records about workloads (Kueue's scheduler, preemptor, eviction and workload controller): type,
 * reason, note and the Workload they regard. Kueue's notes and reasons are those of kueue commit ff69552e, {@code
 * pkg/scheduler/scheduler.go}, {@code pkg/scheduler/preemption/preemption.go}, {@code pkg/workload/evict/evict.go}
 * and {@code pkg/controller/core/workload_controller.go}.
 */
final class AdmissionEventsTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final List<String> events = new ArrayList<>();
  private final List<ObjectReference> regarding = new ArrayList<>();
  private final EventRecorder recorder = (ref, related, type, reason, action, note) -> {
    assertThat(action).isEqualTo(reason); // Kueue gives the reason as the action too
    assertThat(related).isNull();
    regarding.add(ref);
    events.add(ref.namespace() + "/" + ref.name() + " " + type + " " + reason + ": " + note);
  };

  private AdmissionEngine.Builder base(ClusterQueue cq) {
    return AdmissionEngine.builder().clock(clock).events(recorder).resourceFlavors("default").clusterQueue(cq)
        .localQueue(LocalQueue.of("ns", "lq", cq.name()));
  }

  private static ClusterQueue.Builder cq(String cpu) {
    return ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
  }

  private static Workload wl(String name, int priority, String cpu, Instant created) {
    return Workload.builder("ns", name).queueName("lq").priority(priority).request("cpu", cpu).creationTime(created)
        .build();
  }

  @Test
  void schedule_workloadFits_quotaReservedAndAdmittedOnTheWorkload() {
    AdmissionEngine e = base(cq("4").build()).build();
    e.submit(wl("a", 0, "1", T0.minusSeconds(42)));
    e.schedule();
    assertThat(events).containsExactly(
        "ns/a Normal QuotaReserved: Quota reserved in ClusterQueue cq, wait time since queued was 42s",
        "ns/a Normal Admitted: Admitted by ClusterQueue cq, wait time since reservation was 0s");
    assertThat(regarding).containsOnly(new ObjectReference("kueue.x-k8s.io/v1beta2", "Workload", "ns", "a", "", ""));
  }

  @Test
  void schedule_doesNotFit_pendingWarningWithTheReasonOfTheCycle() {
    AdmissionEngine e = base(cq("4").build()).build();
    e.submit(wl("big", 0, "5", T0));
    CycleResult r = e.schedule();
    String reason = "couldn't assign flavors to pod set main: insufficient quota for cpu in flavor default, "
        + "previously considered podsets requests (0) + current podset request (5) > maximum capacity (4)";
    assertThat(r.pending()).containsEntry("ns/big", reason);
    assertThat(events).containsExactly("ns/big Warning Pending: " + reason);
  }

  @Test
  void schedule_parkedBestEffortHead_isNotTriedAgain_soNoSecondPendingEvent() {
    AdmissionEngine e = base(cq("4").queueingStrategy(QueueingStrategy.BEST_EFFORT_FIFO).build()).build();
    e.submit(wl("big", 0, "5", T0));
    e.schedule();
    e.schedule();
    assertThat(events).hasSize(1).allMatch(s -> s.startsWith("ns/big Warning Pending: "));
  }

  @Test
  void schedule_strictFifoHead_isTriedEveryCycle_andEachTryRecordsPending() {
    AdmissionEngine e = base(cq("4").queueingStrategy(QueueingStrategy.STRICT_FIFO).build()).build();
    e.submit(wl("big", 0, "5", T0));
    e.schedule();
    e.schedule();
    assertThat(events).hasSize(2).allMatch(s -> s.startsWith("ns/big Warning Pending: "));
  }

  @Test
  void schedule_preemption_victimEvictedAndPreempted_preemptorPreemptedWorkloadAndPending() {
    AdmissionEngine e = base(cq("4").preemption(ClusterQueuePreemption.of(QueuePreemptionPolicy.LOWER_PRIORITY,
        QueuePreemptionPolicy.NEVER)).build()).build();
    e.submit(wl("low", 1, "4", T0));
    e.schedule();
    events.clear();
    e.submit(wl("high", 7, "4", T0));
    e.schedule();
    String message = "Preempted to accommodate a workload (ns/high) due to prioritization in the ClusterQueue; "
        + "preemptor path: /cq; preemptee path: /cq";
    String priorities = "; preemptor effective priority: 7 (base: 7, boost: 0); "
        + "preemptee effective priority: 1 (base: 1, boost: 0)";
    assertThat(events).containsExactly(
        "ns/low Normal EvictedDueToPreempted: " + message,
        "ns/low Normal Preempted: " + message + priorities,
        "ns/high Normal PreemptedWorkload: Preempted workload ns/low in ClusterQueue cq" + priorities,
        "ns/high Warning Pending: couldn't assign flavors to pod set main: insufficient unused quota for cpu in "
            + "flavor default, 4 more needed; pending the preemption of 1 workload(s)");
    events.clear();
    clock.advance(Duration.ofSeconds(3));
    e.schedule();
    assertThat(events).containsExactly(
        "ns/high Normal QuotaReserved: Quota reserved in ClusterQueue cq, wait time since queued was 3s",
        "ns/high Normal Admitted: Admitted by ClusterQueue cq, wait time since reservation was 0s");
  }

  @Test
  void checks_readyLater_admittedWithTheWaitSinceReservation() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "example.com/prov")).build();
    e.submit(wl("a", 0, "1", T0));
    e.schedule();
    clock.advance(Duration.ofSeconds(20));
    e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.READY, ""));
    assertThat(events).containsExactly(
        "ns/a Normal QuotaReserved: Quota reserved in ClusterQueue cq, wait time since queued was 0s",
        "ns/a Normal Admitted: Admitted by ClusterQueue cq, wait time since reservation was 20s");
  }

  @Test
  void checks_retry_evictedDueToAdmissionCheck_thenQueuedSinceTheEviction() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "example.com/prov")).build();
    e.submit(wl("a", 0, "1", T0.minusSeconds(100)));
    e.schedule();
    events.clear();
    clock.advance(Duration.ofSeconds(5));
    e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.RETRY, "try later"));
    assertThat(events).containsExactly(
        "ns/a Normal EvictedDueToAdmissionCheck: Evicted due to AdmissionCheck in Retry state: \"prov\" (try later)");
    events.clear();
    clock.advance(Duration.ofSeconds(7));
    e.schedule();
    assertThat(events).containsExactly(
        "ns/a Normal QuotaReserved: Quota reserved in ClusterQueue cq, wait time since queued was 7s");
  }

  @Test
  void checks_rejected_admissionCheckRejectedThenEvictedDueToDeactivation() {
    AdmissionEngine e = base(cq("4").admissionChecks("prov").build())
        .admissionCheck(AdmissionCheck.of("prov", "example.com/prov")).build();
    e.submit(wl("a", 0, "1", T0));
    e.schedule();
    events.clear();
    e.setCheckState("ns/a", AdmissionCheckState.of("prov", CheckState.REJECTED, "no capacity"));
    assertThat(events).containsExactly(
        "ns/a Warning AdmissionCheckRejected: Deactivated due to AdmissionCheck in Rejected state: "
            + "\"prov\" (no capacity)",
        "ns/a Normal EvictedDueToDeactivatedDueToAdmissionCheck: The workload is deactivated due to AdmissionCheck "
            + "in Rejected state: \"prov\" (no capacity)");
  }

  @Test
  void waitForPodsReady_timeout_evictedDueToPodsReadyTimeout_thenDeactivatedAtTheLimit() {
    AdmissionEngine e = base(cq("4").build()).waitForPodsReady(WaitForPodsReady.builder()
        .timeout(Duration.ofMinutes(5)).backoffLimitCount(0).backoffJitter(0).build()).build();
    e.submit(wl("a", 0, "1", T0));
    e.schedule();
    events.clear();
    clock.advance(Duration.ofMinutes(5));
    e.schedule();
    assertThat(events).containsExactly("ns/a Normal EvictedDueToDeactivatedDueToRequeuingLimitExceeded: "
        + "The workload is deactivated due to exceeding the maximum number of re-queuing retries");
  }

  @Test
  void waitForPodsReady_timeout_evictedDueToPodsReadyTimeout() {
    AdmissionEngine e = base(cq("4").build()).waitForPodsReady(WaitForPodsReady.builder()
        .timeout(Duration.ofMinutes(5)).backoffJitter(0).build()).build();
    e.submit(wl("a", 0, "1", T0));
    e.schedule();
    events.clear();
    clock.advance(Duration.ofMinutes(5));
    e.schedule();
    assertThat(events).containsExactly(
        "ns/a Normal EvictedDueToPodsReadyTimeout: Exceeded the PodsReady timeout ns/a");
  }

  @Test
  void holdAndDrain_admittedWorkload_evictedDueToClusterQueueStopped() {
    AdmissionEngine e = base(cq("4").build()).build();
    e.submit(wl("a", 0, "1", T0));
    e.schedule();
    events.clear();
    e.putClusterQueue(cq("4").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());
    e.schedule();
    assertThat(events).containsExactly("ns/a Normal EvictedDueToClusterQueueStopped: The ClusterQueue is stopped");
  }

  @Test
  void recorderThatThrows_neverBreaksTheCycle() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("default").clusterQueue(cq("4").build())
        .localQueue(LocalQueue.of("ns", "lq", "cq")).events((ref, related, type, reason, action, note) -> {
          throw new IllegalStateException("store down");
        }).build();
    e.submit(wl("a", 0, "1", T0));
    assertThat(e.schedule().admitted()).extracting(QuotaReservation::workload).containsExactly("ns/a");
    assertThat(e.isAdmitted("ns/a")).isTrue();
  }

  @Test
  void builder_eventsSetTwice_failsNamingTheOldRecorder() {
    AdmissionEngine.Builder b = AdmissionEngine.builder().events(recorder);
    assertThatThrownBy(() -> b.events(EventRecorder.NOOP)).isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("admission engine: events was already set to ");
  }

  @Test
  void seconds_roundsAsGoPercentDotZeroF() {
    assertThat(AdmissionEvents.seconds(Duration.ofMillis(2500))).isEqualTo("2");
    assertThat(AdmissionEvents.seconds(Duration.ofMillis(3500))).isEqualTo("4");
    assertThat(AdmissionEvents.seconds(Duration.ofMillis(1499))).isEqualTo("1");
    assertThat(AdmissionEvents.seconds(Duration.ofSeconds(-3))).isEqualTo("-3");
  }
}
