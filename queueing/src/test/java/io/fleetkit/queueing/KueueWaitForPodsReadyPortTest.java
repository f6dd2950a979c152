package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue (commit ff69552e), the {@code waitForPodsReady} cases:
 *
 * <ul>
 *   <li>{@code pkg/controller/core/workload_controller_test.go} TestAdmittedNotReadyWorkload, 11 of 11 ({@link
 *       WaitForPodsReady#admittedNotReady}; "workload with Admitted=True, PodsReady=False,
 *       Reason=WorkloadWaitForPodsReadyRecovery" and its "recoveryTimeout not configured" variant give upstream's
 *       struct a zero {@code timeout}, which Kueue's configuration validation refuses and that branch does not read:
 *       they run with the default timeout);
 *   <li>{@code pkg/controller/core/workload_controller_requeue_test.go} TestReconcileRequeue, its waitForPodsReady
 *       cases through the engine: "increment re-queue count", "wait time should be limited to backoffMaxSeconds",
 *       "recovery time should be limited to recoveryTimeout", "should keep the WorkloadRequeued condition until the
 *       WaitForPodsReady backoff expires", "should set the WorkloadRequeued condition when the WaitForPodsReady backoff
 *       expires". Upstream compares without {@code requeueState.requeueAt} (its {@code workloadCmpOpts} ignore it);
 *       here it is asserted at the value Kueue's formula gives with jitter 0, the value upstream's comments state
 *       (80s, 7200s). In "recovery time should be limited to recoveryTimeout" upstream's expected workload writes
 *       {@code now + 7200s} with count 1 (its comment is the previous case's); the formula gives 10s, asserted here.
 *       The {@code WorkloadRequeued} condition is not modelled: the cases assert what it stands for (the workload
 *       waits in its queue, not nominated, until {@code requeueAt}, then is queued and admitted);
 *   <li>{@code pkg/controller/core/workload_controller_eviction_test.go} TestReconcileEviction: "trigger deactivation
 *       of workload when reaching backoffLimitCount", "with reason WaitForPodsStart; should set the Evicted condition
 *       with Deactivated reason, exceeded the maximum number of requeue retries...", "with reason WaitForPodsStart;
 *       [backoffLimitCount: 100] ..." (Kueue deactivates in two reconciles, the {@code DeactivationTarget} condition
 *       with reason {@code RequeuingLimitExceeded}, then the eviction; FleetKit does both at once, so the deactivation
 *       message is the second step's, which contains the first's, and the requeue state is cleared as upstream's
 *       comments say it is "in the real cluster"; the two "with reason WaitForPodsStart" cases also check upstream's
 *       {@code wantEvents}, {@code EvictedDueToDeactivatedDueToRequeuingLimitExceeded} with its message);
 *   <li>{@code pkg/workload/workload_test.go} TestSetRequeueState, 8 of 8 ({@link RequeueState#set}; Kueue's nil
 *       count is 0 and its zero {@code requeueAt} none);
 *   <li>{@code pkg/util/wait/backoff_test.go} TestBackoff_WaitTime "caps at limit" ({@link
 *       WaitForPodsReady#requeueDelay}, whole seconds and factor 2);
 *   <li>{@code pkg/scheduler/scheduler_test.go} TestEntryOrdering "Priority sorting is enabled (default) using
 *       pods-ready Eviction timestamp (default)" and "... using pods-ready Creation timestamp", through one cycle;
 *   <li>{@code pkg/config/validation_test.go} TestValidate, 7 of its 8 waitForPodsReady cases, all but "no supported
 *       waitForPodsReady.requeuingStrategy.timestamp" (the timestamp is a Java enum).
 * </ul>
 */
final class KueueWaitForPodsReadyPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final Instant MINUTE_AGO = NOW.minus(Duration.ofMinutes(1));

  private final ManualClock clock = new ManualClock(NOW);

  // TestAdmittedNotReadyWorkload

  private static WaitForPodsReady timeout5m() {
    return WaitForPodsReady.builder().timeout(Duration.ofMinutes(5)).build();
  }

  private static PodsReadyCondition cond(boolean status, String reason) {
    return new PodsReadyCondition(status, reason, "", NOW);
  }

  private static void assertTimeout(Optional<WaitForPodsReady.Timeout> got, String cause, Duration recheckAfter) {
    assertThat(got).isPresent();
    assertThat(got.get().cause()).isEqualTo(cause);
    assertThat(got.get().recheckAfter()).isEqualTo(recheckAfter);
  }

  @Test
  void admittedNotReady_withoutAdmittedCondition_notCounting() {
    assertThat(WaitForPodsReady.admittedNotReady(null, false, Instant.EPOCH, null, NOW)).isEmpty();
  }

  @Test
  void admittedNotReady_admittedNoPodsReady_counting() {
    assertTimeout(WaitForPodsReady.admittedNotReady(timeout5m(), true, MINUTE_AGO, null, NOW),
        WaitForPodsReady.CAUSE_WAIT_FOR_START, Duration.ofMinutes(4));
  }

  @Test
  void admittedNotReady_admittedNoPodsReadyNoTimeoutConfigured_notCounting() {
    assertThat(WaitForPodsReady.admittedNotReady(null, true, MINUTE_AGO, null, NOW)).isEmpty();
  }

  @Test
  void admittedNotReady_admittedNoPodsReady_timeoutExceeded() {
    assertTimeout(WaitForPodsReady.admittedNotReady(timeout5m(), true, NOW.minus(Duration.ofMinutes(7)), null, NOW),
        WaitForPodsReady.CAUSE_WAIT_FOR_START, Duration.ZERO);
  }

  @Test
  void admittedNotReady_reasonWaitForStart_countingSinceAdmitted() {
    assertTimeout(WaitForPodsReady.admittedNotReady(timeout5m(), true, MINUTE_AGO,
        cond(false, PodsReadyCondition.REASON_WAIT_FOR_START), NOW),
        WaitForPodsReady.CAUSE_WAIT_FOR_START, Duration.ofMinutes(4));
  }

  @Test
  void admittedNotReady_reasonPodsReady_countingSinceAdmitted() {
    assertTimeout(WaitForPodsReady.admittedNotReady(timeout5m(), true, MINUTE_AGO,
        cond(false, PodsReadyCondition.REASON_LEGACY_PODS_READY), NOW),
        WaitForPodsReady.CAUSE_WAIT_FOR_START, Duration.ofMinutes(4));
  }

  @Test
  void admittedNotReady_reasonWaitForRecovery_countingSincePodsReadyTransition() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().recoveryTimeout(Duration.ofMinutes(3)).build();
    assertTimeout(WaitForPodsReady.admittedNotReady(cfg, true, MINUTE_AGO,
        cond(false, PodsReadyCondition.REASON_WAIT_FOR_RECOVERY), NOW),
        WaitForPodsReady.CAUSE_WAIT_FOR_RECOVERY, Duration.ofMinutes(3));
  }

  @Test
  void admittedNotReady_reasonWaitForRecoveryWithoutRecoveryTimeout_notCounting() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().withoutRecoveryTimeout().build();
    assertThat(cfg.recoveryTimeout()).isNull();
    assertThat(WaitForPodsReady.admittedNotReady(cfg, true, MINUTE_AGO,
        cond(false, PodsReadyCondition.REASON_WAIT_FOR_RECOVERY), NOW)).isEmpty();
  }

  @Test
  void admittedNotReady_admittedUnknown_notCounting() {
    assertThat(WaitForPodsReady.admittedNotReady(timeout5m(), false, MINUTE_AGO, null, NOW)).isEmpty();
  }

  @Test
  void admittedNotReady_admittedFalse_notCounting() {
    // upstream's case sets Admitted=Unknown as the one above: either way not admitted
    assertThat(WaitForPodsReady.admittedNotReady(timeout5m(), false, MINUTE_AGO, null, NOW)).isEmpty();
  }

  @Test
  void admittedNotReady_podsReadyTrue_notCounting() {
    assertThat(WaitForPodsReady.admittedNotReady(timeout5m(), true, MINUTE_AGO,
        cond(true, PodsReadyCondition.REASON_STARTED), NOW)).isEmpty();
  }

  // TestReconcileRequeue and TestReconcileEviction, through the engine: ClusterQueue q1 with the check "check", the
  // workload ns/wl admitted (its check Ready) with the Admitted condition's transition 5 minutes ago

  private AdmissionEngine engine(WaitForPodsReady cfg) {
    return engine(cfg, clock);
  }

  private final RecordedEvents events = new RecordedEvents();

  private AdmissionEngine engine(WaitForPodsReady cfg, ManualClock clock) {
    return AdmissionEngine.builder().clock(clock).events(events).resourceFlavors("default")
        .admissionCheck(AdmissionCheck.of("check", "test-controller"))
        .clusterQueue(ClusterQueue.builder("q1").admissionChecks("check")
            .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "10"))).build())
        .localQueue(LocalQueue.of("ns", "lq", "q1"))
        .waitForPodsReady(cfg)
        .build();
  }

  private static Workload wl() {
    return Workload.builder("ns", "wl").queueName("lq").request("cpu", "1").creationTime(NOW.minusSeconds(3600))
        .build();
  }

  private AdmissionEngine admitted(WaitForPodsReady cfg, Instant admittedAt) {
    AdmissionEngine e = engine(cfg);
    e.assumeAdmitted(wl(), "q1", Map.of("cpu", "default"), admittedAt);
    assertThat(e.isAdmitted("ns/wl")).isTrue();
    return e;
  }

  private static WaitForPodsReady.Builder requeueConfig() {
    return WaitForPodsReady.builder().timeout(Duration.ofSeconds(3)).backoffLimitCount(100).backoffBaseSeconds(10)
        .backoffJitter(0);
  }

  /** Upstream's evicted workload: the eviction, its checks reset, its quota released, waiting in its queue. */
  private static void assertEvictedByTimeout(AdmissionEngine e, CycleResult r, String cause) {
    assertThat(r.podsReadyEvictions()).containsExactly(new PodsReadyEviction("ns/wl", "q1",
        PodsReadyEviction.Kind.EVICTED, "PodsReadyTimeout", cause, "Exceeded the PodsReady timeout ns/wl"));
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(e.usage("q1", "default", "cpu").toString()).isEqualTo("0");
    assertThat(e.admissionChecks("ns/wl")).singleElement().satisfies(c -> {
      assertThat(c.state()).isEqualTo(CheckState.PENDING);
      assertThat(c.message()).isEqualTo("Reset to Pending after eviction. Previously: Ready");
    });
    assertThat(e.pending("q1")).containsExactly("ns/wl");
  }

  @Test
  void requeue_incrementReQueueCount() {
    AdmissionEngine e = admitted(requeueConfig().backoffMaxSeconds(3600).build(), NOW.minus(Duration.ofMinutes(5)));
    e.assumeRequeueState("ns/wl", new RequeueState(3, null));
    CycleResult r = e.schedule();
    assertEvictedByTimeout(e, r, "WaitForStart");
    // 10s * 2^(4-1) = 80s
    assertThat(e.requeueState("ns/wl")).contains(new RequeueState(4, NOW.plusSeconds(80)));
  }

  @Test
  void requeue_waitTimeLimitedToBackoffMaxSeconds() {
    AdmissionEngine e = admitted(requeueConfig().backoffMaxSeconds(7200).build(), NOW.minus(Duration.ofMinutes(5)));
    e.assumeRequeueState("ns/wl", new RequeueState(10, NOW.minusSeconds(1)));
    CycleResult r = e.schedule();
    assertEvictedByTimeout(e, r, "WaitForStart");
    // 10s * 2^(11-1) = 10240s > backoffMaxSeconds
    assertThat(e.requeueState("ns/wl")).contains(new RequeueState(11, NOW.plusSeconds(7200)));
  }

  @Test
  void requeue_recoveryTimeLimitedToRecoveryTimeout() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofMinutes(5))
        .recoveryTimeout(Duration.ofSeconds(3)).backoffLimitCount(100).backoffBaseSeconds(10).backoffJitter(0)
        .backoffMaxSeconds(7200).build();
    ManualClock clock = new ManualClock(NOW.minus(Duration.ofMinutes(4)));
    AdmissionEngine e = engine(cfg, clock);
    e.assumeAdmitted(wl(), "q1", Map.of("cpu", "default"), NOW.minus(Duration.ofMinutes(5)));
    // PodsReady=False reason WaitForRecovery since 3 minutes ago: the pods were ready, then one failed
    e.setPodsReady("ns/wl", true);
    clock.set(NOW.minus(Duration.ofMinutes(3)));
    assertThat(e.setPodsReady("ns/wl", false)).isEqualTo(new PodsReadyCondition(false, "WaitForRecovery",
        "At least one pod has failed, waiting for recovery", NOW.minus(Duration.ofMinutes(3))));
    clock.set(NOW);
    CycleResult r = e.schedule();
    assertEvictedByTimeout(e, r, "WaitForRecovery");
    assertThat(e.podsReady("ns/wl")).get().satisfies(c -> {
      assertThat(c.status()).isFalse();
      assertThat(c.reason()).isEqualTo("WaitForRecovery");
      assertThat(c.message()).isEqualTo("At least one pod has failed, waiting for recovery");
    });
    assertThat(e.requeueState("ns/wl")).contains(new RequeueState(1, NOW.plusSeconds(10)));
  }

  @Test
  void requeue_keepsWaitingUntilTheBackoffExpires_thenQueuesAgain() {
    // the workload evicted by the PodsReady timeout with requeueState {count 1, requeueAt now+60s}: Kueue's default
    // backoff of 60s
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofSeconds(3)).backoffJitter(0).build();
    AdmissionEngine e = admitted(cfg, NOW.minusSeconds(3));
    CycleResult evicted = e.schedule();
    assertThat(evicted.podsReadyEvictions()).hasSize(1);
    assertThat(e.requeueState("ns/wl")).contains(new RequeueState(1, NOW.plusSeconds(60)));

    // "should keep the WorkloadRequeued condition until the WaitForPodsReady backoff expires": RequeueAfter 1m
    clock.advance(Duration.ofSeconds(59));
    CycleResult waiting = e.schedule();
    assertThat(waiting.admitted()).isEmpty();
    assertThat(waiting.pending()).doesNotContainKey("ns/wl");
    assertThat(e.pending("q1")).containsExactly("ns/wl");
    assertThat(e.requeueState("ns/wl")).contains(new RequeueState(1, NOW.plusSeconds(60)));

    // "should set the WorkloadRequeued condition when the WaitForPodsReady backoff expires": requeueAt is cleared and
    // the workload queued (the count stays)
    clock.advance(Duration.ofSeconds(1));
    CycleResult again = e.schedule();
    assertThat(again.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/wl");
    assertThat(e.requeueState("ns/wl")).contains(new RequeueState(1, null));
  }

  @Test
  void eviction_triggerDeactivationWhenReachingBackoffLimitCount() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofSeconds(3)).backoffLimitCount(1)
        .backoffJitter(0).build();
    AdmissionEngine e = admitted(cfg, NOW.minus(Duration.ofMinutes(5)));
    e.assumeRequeueState("ns/wl", new RequeueState(1, NOW.minusSeconds(1)));
    CycleResult r = e.schedule();
    assertDeactivated(e, r, "WaitForStart");
  }

  /** Upstream's {@code wantEvents} of the deactivating eviction. */
  private void assertDeactivationEvent() {
    assertThat(events.all()).containsExactly("ns/wl Normal EvictedDueToDeactivatedDueToRequeuingLimitExceeded: "
        + "The workload is deactivated due to exceeding the maximum number of re-queuing retries");
  }

  private static void assertDeactivated(AdmissionEngine e, CycleResult r, String cause) {
    String message = "The workload is deactivated due to exceeding the maximum number of re-queuing retries";
    assertThat(message).contains(WaitForPodsReady.MESSAGE_REQUEUING_LIMIT); // the DeactivationTarget message
    assertThat(r.podsReadyEvictions()).containsExactly(new PodsReadyEviction("ns/wl", "q1",
        PodsReadyEviction.Kind.DEACTIVATED, "DeactivatedDueToRequeuingLimitExceeded", cause, message));
    assertThat(e.deactivated("ns/wl")).contains(message);
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(e.pending("q1")).isEmpty();
    assertThat(e.requeueState("ns/wl")).isEmpty();
    assertThat(e.usage("q1", "default", "cpu").toString()).isEqualTo("0");
  }

  @Test
  void eviction_reasonWaitForPodsStart_backoffLimitCountZero_deactivated() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofSeconds(3)).backoffLimitCount(0)
        .backoffBaseSeconds(10).backoffJitter(0).build();
    AdmissionEngine e = admitted(cfg, NOW.minus(Duration.ofMinutes(1)));
    assertThat(e.setPodsReady("ns/wl", false).reason()).isEqualTo("WaitForStart");
    assertThat(e.podsReady("ns/wl").get().message()).isEqualTo("Not all pods are ready or succeeded");
    assertDeactivated(e, e.schedule(), "WaitForStart");
    assertDeactivationEvent();
    // reactivation (spec.active back to true) queues it again, with no requeue state
    assertThat(e.reactivate("ns/wl")).isTrue();
    assertThat(e.pending("q1")).containsExactly("ns/wl");
  }

  @Test
  void eviction_reasonWaitForPodsStart_backoffLimitCount100_countAtLimit_deactivated() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofSeconds(3)).backoffLimitCount(100)
        .backoffBaseSeconds(10).backoffJitter(0).build();
    AdmissionEngine e = admitted(cfg, NOW.minus(Duration.ofMinutes(1)));
    e.setPodsReady("ns/wl", false);
    e.assumeRequeueState("ns/wl", new RequeueState(100, null));
    assertDeactivated(e, e.schedule(), "WaitForStart");
    assertDeactivationEvent();
  }

  // TestEntryOrdering (pkg/scheduler/scheduler_test.go), the pods-ready timestamp cases with priority sorting on:
  // one head per ClusterQueue, the non-borrowing queues without a cohort, the borrowing ones (nominal quota 0) in the
  // flat cohort "flat" with a lender (borrowing level 1), "high_pri_borrowing_more" in cohort "mid" under "root"
  // whose lender sits at the root (level 2). The two evicted workloads were admitted and time out in the cycle itself
  // (at now+2s, upstream's Evicted condition time), with no backoff; the cycle's admissions come in its entry order.
  // Upstream's names are written with '-' for '_', as Kubernetes names require.

  private static final Instant T = Instant.parse("2026-03-01T12:00:00Z");

  private static List<String> entryOrder(WaitForPodsReady.RequeuingTimestamp timestamp) {
    ManualClock c = new ManualClock(T.plusSeconds(2));
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(c).resourceFlavors("default")
        .waitForPodsReady(WaitForPodsReady.builder().timeout(Duration.ofMinutes(1)).backoffBaseSeconds(0)
            .backoffJitter(0).timestamp(timestamp).build())
        .cohort(Cohort.of("mid", "root"))
        .clusterQueue(queue("lender", "flat", "100"))
        .clusterQueue(queue("lender-root", "root", "100"));
    String[] own = {"old", "new", "new_high_pri", "recently_evicted"};
    String[] borrowing = {"old_borrowing", "high_pri_borrowing", "new_borrowing", "evicted_borrowing"};
    for (String n : own) {
      b.clusterQueue(queue(n, null, "10")).localQueue(LocalQueue.of("ns", k(n), k(n)));
    }
    for (String n : borrowing) {
      b.clusterQueue(queue(n, "flat", "0")).localQueue(LocalQueue.of("ns", k(n), k(n)));
    }
    b.clusterQueue(queue("high_pri_borrowing_more", "mid", "0"))
        .localQueue(LocalQueue.of("ns", k("high_pri_borrowing_more"), k("high_pri_borrowing_more")));
    AdmissionEngine e = b.build();
    e.submit(entry("old_borrowing", 0, 0));
    e.submit(entry("old", 1, 0));
    e.submit(entry("new", 3, 0));
    e.submit(entry("high_pri_borrowing", 3, 1));
    e.submit(entry("new_high_pri", 4, 1));
    e.submit(entry("new_borrowing", 3, 0));
    e.submit(entry("high_pri_borrowing_more", 3, 1));
    Instant timedOut = c.instant().minus(Duration.ofMinutes(1));
    e.assumeAdmitted(entry("evicted_borrowing", 1, 0), k("evicted_borrowing"), Map.of("cpu", "default"), timedOut);
    e.assumeAdmitted(entry("recently_evicted", 0, 0), k("recently_evicted"), Map.of("cpu", "default"), timedOut);
    CycleResult r = e.schedule();
    assertThat(r.podsReadyEvictions()).extracting(PodsReadyEviction::workload)
        .containsExactlyInAnyOrder("ns/evicted-borrowing", "ns/recently-evicted");
    return r.admitted().stream().map(a -> a.workload().substring("ns/".length()).replace('-', '_')).toList();
  }

  /** Upstream's name as a Kubernetes name ({@code _} is not allowed). */
  private static String k(String upstreamName) {
    return upstreamName.replace('_', '-');
  }

  private static ClusterQueue queue(String name, @Nullable String cohort, String cpu) {
    ClusterQueue.Builder q = ClusterQueue.builder(k(name))
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", cpu)));
    return (cohort == null ? q : q.cohort(cohort)).build();
  }

  private static Workload entry(String name, int createdSecondsAfterT, int priority) {
    return Workload.builder("ns", k(name)).queueName(k(name)).priority(priority).request("cpu", "1")
        .creationTime(T.plusSeconds(createdSecondsAfterT)).build();
  }

  @Test
  void entryOrdering_prioritySortingWithPodsReadyEvictionTimestamp() {
    assertThat(entryOrder(WaitForPodsReady.RequeuingTimestamp.EVICTION)).containsExactly("new_high_pri", "old",
        "recently_evicted", "new", "high_pri_borrowing", "old_borrowing", "evicted_borrowing", "new_borrowing",
        "high_pri_borrowing_more");
  }

  @Test
  void entryOrdering_prioritySortingWithPodsReadyCreationTimestamp() {
    assertThat(entryOrder(WaitForPodsReady.RequeuingTimestamp.CREATION)).containsExactly("new_high_pri",
        "recently_evicted", "old", "new", "high_pri_borrowing", "old_borrowing", "evicted_borrowing",
        "new_borrowing", "high_pri_borrowing_more");
  }

  // TestSetRequeueState

  private static final Instant BASE = Instant.parse("2024-01-01T12:00:00Z");
  private static final Instant FUTURE = BASE.plus(Duration.ofMinutes(5));
  private static final Instant EVEN_MORE_FUTURE = BASE.plus(Duration.ofMinutes(10));
  private static final Instant PAST = BASE.minus(Duration.ofMinutes(5));

  private static void assertSet(RequeueState current, boolean increment, boolean wantUpdated, Instant wantAt,
      int wantCount) {
    RequeueState got = RequeueState.set(current, FUTURE, increment);
    assertThat(!got.equals(current)).isEqualTo(wantUpdated);
    assertThat(got).isEqualTo(new RequeueState(wantCount, wantAt));
  }

  @Test
  void setRequeueState_nilWithoutIncrement() {
    assertSet(null, false, true, FUTURE, 0);
  }

  @Test
  void setRequeueState_nilWithIncrement() {
    assertSet(null, true, true, FUTURE, 1);
  }

  @Test
  void setRequeueState_updatesEarlierTime() {
    assertSet(new RequeueState(2, PAST), false, true, FUTURE, 2);
  }

  @Test
  void setRequeueState_keepsLaterTime() {
    assertSet(new RequeueState(3, EVEN_MORE_FUTURE), false, false, EVEN_MORE_FUTURE, 3);
  }

  @Test
  void setRequeueState_incrementsCountKeepingLaterTime() {
    assertSet(new RequeueState(3, EVEN_MORE_FUTURE), true, true, EVEN_MORE_FUTURE, 4);
  }

  @Test
  void setRequeueState_incrementsCountWhenTimeIsSame() {
    assertSet(new RequeueState(1, FUTURE), true, true, FUTURE, 2);
  }

  @Test
  void setRequeueState_incrementsFromZero() {
    assertSet(new RequeueState(0, PAST), true, true, FUTURE, 1);
  }

  @Test
  void setRequeueState_zeroTime() {
    assertSet(new RequeueState(0, null), true, true, FUTURE, 1);
  }

  // TestBackoff_WaitTime

  @Test
  void backoffWaitTime_capsAtLimit() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().backoffBaseSeconds(1).backoffMaxSeconds(5).build();
    // steps: 1s, 2s, 4s, 8s -> cap 5s
    assertThat(cfg.requeueDelay(4)).isEqualTo(Duration.ofSeconds(5));
  }

  // TestValidate (pkg/config): the waitForPodsReady cases

  private static void assertInvalid(WaitForPodsReady.Builder b, String field) {
    assertThatThrownBy(b::build).isInstanceOf(ValidationException.class)
        .satisfies(ex -> assertThat(((ValidationException) ex).violations()).extracting(Violation::field)
            .containsExactly(field));
  }

  @Test
  void validate_emptyTimeout() {
    assertInvalid(WaitForPodsReady.builder().timeout(Duration.ZERO), "waitForPodsReady.timeout");
    assertThatThrownBy(() -> WaitForPodsReady.builder().timeout(Duration.ZERO).build())
        .hasMessageContaining("Configuration waitForPodsReady: waitForPodsReady.timeout \"0s\" must be specified");
  }

  @Test
  void validate_negativeTimeout() {
    assertInvalid(WaitForPodsReady.builder().timeout(Duration.ofNanos(-1)), "waitForPodsReady.timeout");
  }

  @Test
  void validate_negativeRecoveryTimeout() {
    assertInvalid(WaitForPodsReady.builder().timeout(Duration.ofMinutes(5)).recoveryTimeout(Duration.ofNanos(-1)),
        "waitForPodsReady.recoveryTimeout");
  }

  @Test
  void validate_valid() {
    WaitForPodsReady cfg = WaitForPodsReady.builder().timeout(Duration.ofNanos(50))
        .recoveryTimeout(Duration.ofNanos(3)).blockAdmission(false)
        .timestamp(WaitForPodsReady.RequeuingTimestamp.CREATION).backoffLimitCount(10).backoffBaseSeconds(30)
        .backoffMaxSeconds(1800).build();
    assertThat(cfg.timeout()).isEqualTo(Duration.ofNanos(50));
    assertThat(cfg.backoffLimitCount()).isEqualTo(10);
  }

  @Test
  void validate_negativeBackoffLimitCount() {
    assertInvalid(WaitForPodsReady.builder().backoffLimitCount(-1),
        "waitForPodsReady.requeuingStrategy.backoffLimitCount");
  }

  @Test
  void validate_negativeBackoffBaseSeconds() {
    assertInvalid(WaitForPodsReady.builder().backoffBaseSeconds(-1),
        "waitForPodsReady.requeuingStrategy.backoffBaseSeconds");
  }

  @Test
  void validate_negativeBackoffMaxSeconds() {
    assertInvalid(WaitForPodsReady.builder().backoffMaxSeconds(-1),
        "waitForPodsReady.requeuingStrategy.backoffMaxSeconds");
  }

  @Test
  void defaults_areKueues() {
    WaitForPodsReady d = WaitForPodsReady.defaults();
    assertThat(d).isEqualTo(new WaitForPodsReady(Duration.ofMinutes(30), false, Duration.ofMinutes(30),
        WaitForPodsReady.RequeuingTimestamp.EVICTION, null, 60, 3600, 0.0001));
    assertThat(List.of(d.requeueDelay(1), d.requeueDelay(2), d.requeueDelay(7), d.requeueDelay(8)))
        .containsExactly(Duration.ofSeconds(60), Duration.ofSeconds(120), Duration.ofSeconds(3600),
            Duration.ofSeconds(3600));
  }
}
