package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue (commit ff69552e), the cases about queue state and {@code stopPolicy}:
 *
 * <ul>
 *   <li>{@code pkg/cache/scheduler/cache_test.go} {@code TestClusterQueueReadiness}, 8 of 8: the ClusterQueue's
 *       {@code Active} condition ({@link AdmissionEngine#clusterQueueActive}). Upstream's base queue has a borrowing
 *       limit without a cohort, which Kueue's webhook refuses and the cache does not read: it is left out. "queue not
 *       found" (upstream's {@code NotFound}) is the engine's refusal of the name; "terminating" needs a workload holding
 *       quota (the engine drops an idle queue at once; Kueue's cache marks it terminating before the finalizer goes).
 *   <li>{@code pkg/controller/core/localqueue_controller_test.go} {@code TestLocalQueueReconcile}, 3 of 19: the
 *       LocalQueue's {@code Active} condition ({@link AdmissionEngine#localQueueActive}); upstream's inactive
 *       ClusterQueue has no {@code Active} condition, here it names a missing flavor.
 *   <li>{@code pkg/controller/core/workload_controller_eviction_test.go} {@code TestReconcileEviction}, its 2
 *       stopPolicy cases: the eviction reason and message ({@link QueueStopEviction}) and upstream's {@code
 *       wantEvents} ({@code EvictedDueTo<reason>} with the message); upstream's queue has no quota, here it has the
 *       workload's flavor, and the workload is admitted by {@code assumeAdmitted}.
 *   <li>{@code pkg/controller/core/workload_controller_inadmissible_test.go} {@code TestReconcileInadmissible}, 11 of
 *       20: a reservation not admitted (a Pending check) released with Kueue's reason and message; a workload without
 *       quota blocked by its queues ({@link AdmissionEngine#queueBlocker}). A LocalQueue "not created" is one removed
 *       after the workload was submitted (the engine refuses a workload naming a LocalQueue it never had).
 *   <li>{@code pkg/controller/core/workload_controller_test.go} {@code TestReconcile}, "inadmissible workload due to
 *       missing LocalQueue (observability enabled)", "inadmissible workload due to stopped ClusterQueue (observability
 *       enabled)".
 *   <li>{@code pkg/controller/core/workload_controller_requeue_test.go} {@code TestReconcileRequeue}, "should set the
 *       WorkloadRequeued condition to true on ClusterQueue started" and "... on LocalQueue started": the engine keeps
 *       no {@code WorkloadRequeued} condition, so what it stands for is asserted: the evicted workload waits while its
 *       queue is stopped and is queued and admitted once the queue is started.
 * </ul>
 */
final class KueueStopPolicyPortTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");
  private final ManualClock clock = new ManualClock(T0);

  private static ClusterQueue.Builder cq() {
    return ClusterQueue.builder("cq").resourceGroup(FlavorQuotas.of("flavor1", FlavorResourceQuota.of("cpu", "10")));
  }

  private static LocalQueue lq() {
    return LocalQueue.of("ns", "lq", "cq");
  }

  private static Workload wl() {
    return Workload.builder("ns", "wl").queueName("lq").creationTime(T0).request("cpu", "1").build();
  }

  private final RecordedEvents events = new RecordedEvents();

  private AdmissionEngine engine(ClusterQueue queue) {
    return AdmissionEngine.builder().clock(clock).events(events).resourceFlavors("flavor1").clusterQueue(queue)
        .admissionCheck(AdmissionCheck.of("check", "example.com/check")).localQueue(lq()).build();
  }

  /** The workload with quota reserved in "cq" and its check "check" Pending (not admitted). */
  private AdmissionEngine reservedWithPendingCheck() {
    AdmissionEngine e = engine(cq().admissionChecks("check").build());
    e.submit(wl());
    e.schedule();
    assertThat(e.admission("ns/wl")).isPresent();
    assertThat(e.isAdmitted("ns/wl")).isFalse();
    return e;
  }

  /** The workload admitted in "cq". */
  private AdmissionEngine admitted() {
    AdmissionEngine e = engine(cq().build());
    e.assumeAdmitted(wl(), "cq", Map.of("cpu", "flavor1"), T0);
    assertThat(e.isAdmitted("ns/wl")).isTrue();
    return e;
  }

  private static void assertReleased(AdmissionEngine e, String reason, String message) {
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(e.admissionChecks("ns/wl")).extracting(AdmissionCheckState::state).containsExactly(CheckState.PENDING);
    assertThat(e.schedule().queueStops()).containsExactly(new QueueStopEviction("ns/wl", "cq",
        QueueStopEviction.Kind.RESERVATION_RELEASED, reason, message));
  }

  // --- TestClusterQueueReadiness ---

  private AdmissionEngine readiness(boolean flavor, @org.jspecify.annotations.Nullable AdmissionCheck check) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock)
        .clusterQueue(ClusterQueue.builder("queue1").admissionChecks("check1")
            .resourceGroup(FlavorQuotas.of("flavor1", FlavorResourceQuota.of("cpu", "10"))).build());
    if (flavor) {
      b.resourceFlavors("flavor1");
    }
    if (check != null) {
      b.admissionCheck(check);
    }
    return b.build();
  }

  private static final AdmissionCheck BASE_CHECK = AdmissionCheck.of("check1", "example.com/check");

  @Test
  void readiness_queueNotFound() {
    AdmissionEngine e = AdmissionEngine.builder().build();
    assertThatThrownBy(() -> e.clusterQueueActive("queue1")).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("admission engine: ClusterQueue \"queue1\" is not known");
  }

  @Test
  void readiness_flavorNotFound() {
    assertThat(readiness(false, BASE_CHECK).clusterQueueActive("queue1")).isEqualTo(new ActiveCondition(false,
        "FlavorNotFound", "Can't admit new workloads: references missing ResourceFlavor(s): flavor1."));
  }

  @Test
  void readiness_checkNotFound() {
    assertThat(readiness(true, null).clusterQueueActive("queue1")).isEqualTo(new ActiveCondition(false,
        "AdmissionCheckNotFound", "Can't admit new workloads: references missing AdmissionCheck(s): check1."));
  }

  @Test
  void readiness_checkInactive() {
    assertThat(readiness(true, BASE_CHECK.withActive(false)).clusterQueueActive("queue1")).isEqualTo(
        new ActiveCondition(false, "AdmissionCheckInactive",
            "Can't admit new workloads: references inactive AdmissionCheck(s): check1."));
  }

  @Test
  void readiness_flavorAndCheckNotFound() {
    assertThat(readiness(false, null).clusterQueueActive("queue1")).isEqualTo(new ActiveCondition(false,
        "FlavorNotFound", "Can't admit new workloads: references missing ResourceFlavor(s): flavor1, references "
            + "missing AdmissionCheck(s): check1."));
  }

  @Test
  void readiness_terminating() {
    AdmissionEngine e = readiness(true, BASE_CHECK);
    e.assumeAdmitted(Workload.builder("ns", "running").queueName("lq").request("cpu", "1").build(), "queue1",
        Map.of("cpu", "flavor1"), T0);
    e.removeClusterQueue("queue1");
    assertThat(e.clusterQueueActive("queue1")).isEqualTo(new ActiveCondition(false, "Terminating",
        "Can't admit new workloads; clusterQueue is terminating"));
  }

  @Test
  void readiness_ready() {
    assertThat(readiness(true, BASE_CHECK).clusterQueueActive("queue1")).isEqualTo(
        new ActiveCondition(true, "Ready", "Can admit new workloads"));
  }

  @Test
  void readiness_stopped() {
    AdmissionEngine e = AdmissionEngine.builder()
        .clusterQueue(ClusterQueue.builder("queue1").stopPolicy(StopPolicy.HOLD_AND_DRAIN).build()).build();
    assertThat(e.clusterQueueActive("queue1")).isEqualTo(
        new ActiveCondition(false, "Stopped", "Can't admit new workloads: is stopped."));
  }

  // --- TestLocalQueueReconcile ---

  @Test
  void localQueueReconcile_localQueueWithHoldStopPolicy() {
    AdmissionEngine e = engine(cq().build());
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD));
    assertThat(e.localQueueActive("ns", "lq")).isEqualTo(
        new ActiveCondition(false, "Stopped", "LocalQueue is stopped"));
  }

  @Test
  void localQueueReconcile_localQueueWithHoldAndDrainStopPolicy() {
    AdmissionEngine e = engine(cq().build());
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD_AND_DRAIN));
    assertThat(e.localQueueActive("ns", "lq")).isEqualTo(
        new ActiveCondition(false, "Stopped", "LocalQueue is stopped"));
  }

  @Test
  void localQueueReconcile_clusterQueueIsInactive() {
    AdmissionEngine e = AdmissionEngine.builder().clusterQueue(cq().build()).localQueue(lq()).build();
    assertThat(e.localQueueActive("ns", "lq")).isEqualTo(
        new ActiveCondition(false, "ClusterQueueIsInactive", "Can't submit new workloads to clusterQueue"));
  }

  // --- TestReconcileEviction ---

  @Test
  void eviction_clusterQueueStoppedReasonWhenTheStopPolicyIsHoldAndDrain() {
    AdmissionEngine e = admitted();
    e.putClusterQueue(cq().stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());
    assertThat(e.schedule().queueStops()).containsExactly(new QueueStopEviction("ns/wl", "cq",
        QueueStopEviction.Kind.EVICTED, "ClusterQueueStopped", "The ClusterQueue is stopped"));
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(events.all()).containsExactly("ns/wl Normal EvictedDueToClusterQueueStopped: The ClusterQueue is stopped");
  }

  @Test
  void eviction_localQueueStoppedReasonWhenTheStopPolicyIsHoldAndDrain() {
    AdmissionEngine e = admitted();
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD_AND_DRAIN));
    assertThat(e.schedule().queueStops()).containsExactly(new QueueStopEviction("ns/wl", "cq",
        QueueStopEviction.Kind.EVICTED, "LocalQueueStopped", "The LocalQueue is stopped"));
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(events.all()).containsExactly("ns/wl Normal EvictedDueToLocalQueueStopped: The LocalQueue is stopped");
  }

  // --- TestReconcileInadmissible ---

  @Test
  void inadmissible_misconfiguredWhenTheLocalQueueWasDeleted() {
    AdmissionEngine e = reservedWithPendingCheck();
    e.removeLocalQueue("ns", "lq");
    assertReleased(e, "Misconfigured", "LocalQueue lq is terminating or missing");
  }

  @Test
  void inadmissible_suspendedWhenTheLocalQueueWasHold() {
    AdmissionEngine e = reservedWithPendingCheck();
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD));
    assertReleased(e, "Suspended", "LocalQueue lq is stopped");
  }

  @Test
  void inadmissible_misconfiguredWhenTheClusterQueueIsTerminating() {
    AdmissionEngine e = reservedWithPendingCheck();
    e.removeClusterQueue("cq");
    assertReleased(e, "Misconfigured", "ClusterQueue cq is terminating or missing");
  }

  @Test
  void inadmissible_suspendedWhenTheClusterQueueWasHold() {
    AdmissionEngine e = reservedWithPendingCheck();
    e.putClusterQueue(cq().admissionChecks("check").stopPolicy(StopPolicy.HOLD).build());
    assertReleased(e, "Suspended", "ClusterQueue cq is stopped");
  }

  @Test
  void inadmissible_misconfiguredIfQuotaNotReservedAndTheLocalQueueIsNotCreated() {
    AdmissionEngine e = engine(cq().build());
    e.submit(wl());
    e.removeLocalQueue("ns", "lq");
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Misconfigured", "LocalQueue lq doesn't exist"));
  }

  @Test
  void inadmissible_pendingEvaluationWhenAllBlockagesAreResolved() {
    AdmissionEngine e = engine(cq().build());
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD));
    e.submit(wl());
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Suspended", "LocalQueue lq is inactive"));
    e.putLocalQueue(lq());
    assertThat(e.queueBlocker("ns/wl")).isEmpty();
    assertThat(e.pending("cq")).containsExactly("ns/wl");
  }

  @Test
  void inadmissible_pendingEvaluationWhenTheMissingLocalQueueIsResolved() {
    AdmissionEngine e = engine(cq().build());
    e.submit(wl());
    e.removeLocalQueue("ns", "lq");
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Misconfigured", "LocalQueue lq doesn't exist"));
    e.putLocalQueue(lq());
    assertThat(e.queueBlocker("ns/wl")).isEmpty();
    assertThat(e.pending("cq")).containsExactly("ns/wl");
  }

  @Test
  void inadmissible_suspendedIfQuotaNotReservedAndTheLocalQueueIsHold() {
    AdmissionEngine e = engine(cq().build());
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD));
    e.submit(wl());
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Suspended", "LocalQueue lq is inactive"));
  }

  @Test
  void inadmissible_suspendedIfQuotaNotReservedAndTheLocalQueueIsHoldAndDrain() {
    AdmissionEngine e = engine(cq().build());
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD_AND_DRAIN));
    e.submit(wl());
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Suspended", "LocalQueue lq is inactive"));
  }

  @Test
  void inadmissible_misconfiguredIfQuotaNotReservedAndTheClusterQueueIsNotCreated() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).build();
    e.putLocalQueue(lq());
    e.submit(wl());
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Misconfigured", "ClusterQueue cq doesn't exist"));
  }

  @Test
  void inadmissible_suspendedIfQuotaNotReservedAndTheClusterQueueIsHold() {
    AdmissionEngine e = engine(cq().stopPolicy(StopPolicy.HOLD).build());
    e.submit(wl());
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Suspended", "ClusterQueue cq is inactive"));
  }

  // --- TestReconcile ---

  @Test
  void reconcile_inadmissibleWorkloadDueToMissingLocalQueue() {
    AdmissionEngine e = AdmissionEngine.builder().clock(clock).resourceFlavors("flavor1").clusterQueue(cq().build())
        .localQueue(LocalQueue.of("ns", "non-existent-lq", "cq")).build();
    e.submit(Workload.builder("ns", "wl").queueName("non-existent-lq").request("cpu", "1").build());
    e.removeLocalQueue("ns", "non-existent-lq");
    assertThat(e.queueBlocker("ns/wl")).contains(
        new QueueBlocker("Misconfigured", "LocalQueue non-existent-lq doesn't exist"));
  }

  @Test
  void reconcile_inadmissibleWorkloadDueToStoppedClusterQueue() {
    AdmissionEngine e = engine(cq().stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());
    e.submit(wl());
    assertThat(e.queueBlocker("ns/wl")).contains(new QueueBlocker("Suspended", "ClusterQueue cq is inactive"));
  }

  // --- TestReconcileRequeue ---

  @Test
  void requeue_onClusterQueueStarted() {
    AdmissionEngine e = admitted();
    e.putClusterQueue(cq().stopPolicy(StopPolicy.HOLD_AND_DRAIN).build());
    List<CycleResult> stopped = e.scheduleUntilIdle(10);
    assertThat(stopped).flatExtracting(CycleResult::admitted).isEmpty();
    assertThat(e.pending("cq")).containsExactly("ns/wl");

    e.putClusterQueue(cq().build());
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("ns/wl")).isTrue();
  }

  @Test
  void requeue_onLocalQueueStarted() {
    AdmissionEngine e = admitted();
    e.putLocalQueue(lq().withStopPolicy(StopPolicy.HOLD_AND_DRAIN));
    List<CycleResult> stopped = e.scheduleUntilIdle(10);
    assertThat(stopped).flatExtracting(CycleResult::admitted).isEmpty();
    assertThat(e.pendingCount()).isEqualTo(1);

    e.putLocalQueue(lq());
    e.scheduleUntilIdle(10);
    assertThat(e.isAdmitted("ns/wl")).isTrue();
  }
}
