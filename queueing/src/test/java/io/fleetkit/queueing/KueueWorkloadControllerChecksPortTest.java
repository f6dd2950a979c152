package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/controller/core/workload_controller_test.go} and {@code
 * workload_controller_eviction_test.go} (commit ff69552e), the admission-check cases: {@code TestSyncCheckStates}
 * (5 of 5, {@link AdmissionChecks#syncStates}), {@code TestReconcileSyncAdmissionChecks} (5 of 5, the checks the
 * engine gives a workload), of {@code TestReconcile} "assign Admission Checks from
 * ClusterQueue.spec.AdmissionCheckStrategy", "assign Admission Checks from ClusterQueue.spec.AdmissionChecks", "admit",
 * "already admitted", and of {@code TestReconcileEviction} the seven cases of Rejected and Retry checks ("workload with retry
 * checks and unhealthy nodes should be evicted and checks should be pending": Kueue's workload keeps {@code
 * status.unhealthyNodes} while its eviction is in progress and clears it with the quota; FleetKit releases the quota
 * in the same step, so the record is gone with it). Kueue's reconciler writes conditions and events; here the engine's {@link CheckOutcome} carries the
 * eviction or deactivation message (the {@code Evicted} condition's and the event's), and the check states, the
 * released quota and the queue are asserted. Kueue deactivates in two reconciles (the {@code DeactivationTarget}
 * condition, message {@code AdmissionCheck in Rejected state: "check"}, then the eviction {@code The workload is
 * deactivated due to ...}); FleetKit does both at once, so the outcome carries the second message, which contains the
 * first.
 *
 * <p>Upstream's {@code wantEvents} (with their messages) are checked too, for "admit" and the seven eviction cases,
 * on the events the engine records ({@code AdmissionEngine.Builder#events}); where Kueue's two reconciles record one
 * event each ({@code AdmissionCheckRejected}, then {@code EvictedDueToDeactivatedDueToAdmissionCheck}), the engine
 * records both at once, in that order, and a case expecting one of them gets it with the other step's beside it.
 */
final class KueueWorkloadControllerChecksPortTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  private final ManualClock clock = new ManualClock(T0);
  private final RecordedEvents events = new RecordedEvents();

  private AdmissionEngine engine(ClusterQueue cq, String... checks) {
    AdmissionEngine.Builder b = AdmissionEngine.builder().clock(clock).events(events)
        .resourceFlavors("flavor1", "flavor2")
        .clusterQueue(cq).localQueue(LocalQueue.of("ns", "queue", cq.name()));
    for (String c : checks) {
      b.admissionCheck(AdmissionCheck.of(c, "test-controller"));
    }
    return b.build();
  }

  private static ClusterQueue.Builder cq(String name) {
    return ClusterQueue.builder(name).resourceGroup(
        FlavorQuotas.of("flavor1", FlavorResourceQuota.of("cpu", "10")),
        FlavorQuotas.of("flavor2", FlavorResourceQuota.of("cpu", "10")));
  }

  private static Workload wl() {
    return Workload.builder("ns", "wl").queueName("queue").request("cpu", "1").build();
  }

  /** The workload, submitted and given quota (in flavor1) by one cycle. */
  private AdmissionEngine reserved(ClusterQueue cq, String... checks) {
    AdmissionEngine e = engine(cq, checks);
    e.submit(wl());
    CycleResult r = e.schedule();
    assertThat(r.admitted()).extracting(QuotaReservation::workload).containsExactly("ns/wl");
    events.clear();
    return e;
  }

  private static AdmissionCheckState state(String name, CheckState s) {
    return AdmissionCheckState.of(name, s, "");
  }

  private static void assertStates(List<AdmissionCheckState> got, AdmissionCheckState... want) {
    assertThat(got).hasSize(want.length);
    for (int i = 0; i < want.length; i++) {
      assertThat(got.get(i).name()).isEqualTo(want[i].name());
      assertThat(got.get(i).state()).isEqualTo(want[i].state());
      assertThat(got.get(i).message()).isEqualTo(want[i].message());
      assertThat(got.get(i).retryCount()).isEqualTo(want[i].retryCount());
    }
  }

  // TestSyncCheckStates

  @Test
  void syncCheckStates_nilConditionsNilList() {
    assertThat(AdmissionChecks.syncStates(List.of(), Set.of(), T0)).isNull();
  }

  @Test
  void syncCheckStates_addToNilConditions() {
    List<AdmissionCheckState> got = AdmissionChecks.syncStates(List.of(), Set.of("ac1", "ac2"), T0);
    assertStates(got, state("ac1", CheckState.PENDING), state("ac2", CheckState.PENDING));
  }

  @Test
  void syncCheckStates_addAndRemove() {
    List<AdmissionCheckState> got = AdmissionChecks.syncStates(
        List.of(state("ac0", CheckState.PENDING), state("ac1", CheckState.PENDING)), Set.of("ac1", "ac2"), T0);
    assertStates(got, state("ac1", CheckState.PENDING), state("ac2", CheckState.PENDING));
  }

  @Test
  void syncCheckStates_cleanup() {
    List<AdmissionCheckState> got = AdmissionChecks.syncStates(
        List.of(state("ac0", CheckState.PENDING), state("ac1", CheckState.PENDING)), Set.of(), T0);
    assertThat(got).isNotNull().isEmpty();
  }

  @Test
  void syncCheckStates_preserveConditionsData() {
    List<AdmissionCheckState> states = List.of(AdmissionCheckState.of("ac0", CheckState.READY, "Message one"),
        state("ac1", CheckState.PENDING));
    assertThat(AdmissionChecks.syncStates(states, Set.of("ac0", "ac1"), T0)).isNull(); // no change: kept as they are
  }

  // TestReconcileSyncAdmissionChecks: the states the workload controller syncs, for a pending workload (no
  // reservation) or the one with cpu in flavor1

  private static QuotaReservation inFlavor1() {
    return new QuotaReservation("ns/wl", "cq", List.of(new PodSetAssignment("p1", 1,
        java.util.Map.of("cpu", "flavor1"), io.fleetkit.api.resource.ResourceList.EMPTY)), T0, false);
  }

  @Test
  void syncAdmissionChecks_noChecksInCq() {
    AdmissionEngine e = engine(cq("cq").build());
    e.submit(wl());
    assertThat(e.admissionChecks("ns/wl")).isEmpty();
  }

  @Test
  void syncAdmissionChecks_addChecksFromCq() {
    AdmissionEngine e = engine(cq("cq").admissionChecks("ac1", "ac2").build(), "ac1", "ac2");
    e.submit(wl());
    assertStates(e.admissionChecks("ns/wl"), state("ac1", CheckState.PENDING), state("ac2", CheckState.PENDING));
  }

  @Test
  void syncAdmissionChecks_onlyChecksCoveringAllFlavorsForUnadmittedWorkload() {
    AdmissionEngine e = engine(cq("cq").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"),
        AdmissionCheckStrategyRule.of("ac2")).build(), "ac1", "ac2");
    e.submit(wl());
    assertStates(e.admissionChecks("ns/wl"), state("ac2", CheckState.PENDING));
  }

  @Test
  void syncAdmissionChecks_addChecksToAdmittedWorkloadFromStrategy() {
    ClusterQueue q = cq("cq").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"),
        AdmissionCheckStrategyRule.of("ac2", "flavor2"), AdmissionCheckStrategyRule.of("ac3")).build();
    assertStates(AdmissionChecks.syncStates(List.of(), AdmissionChecks.checksForWorkload(q, inFlavor1()), T0),
        state("ac1", CheckState.PENDING), state("ac3", CheckState.PENDING));
    // the same through the engine: the cycle reserves flavor1 (the first that fits)
    AdmissionEngine e = reserved(q, "ac1", "ac2", "ac3");
    assertStates(e.admissionChecks("ns/wl"), state("ac1", CheckState.PENDING), state("ac3", CheckState.PENDING));
  }

  @Test
  void syncAdmissionChecks_keepOnlyExistingValidChecks() {
    ClusterQueue q = cq("cq").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1"),
        AdmissionCheckStrategyRule.of("ac2")).build();
    List<AdmissionCheckState> got = AdmissionChecks.syncStates(
        List.of(state("ac1", CheckState.READY), state("ac3", CheckState.READY)),
        AdmissionChecks.checksForWorkload(q, null), T0);
    assertStates(got, state("ac1", CheckState.READY), state("ac2", CheckState.PENDING));
  }

  // TestReconcile

  @Test
  void reconcile_assignAdmissionChecksFromStrategy() {
    AdmissionEngine e = reserved(cq("cq").admissionCheckStrategy(AdmissionCheckStrategyRule.of("ac1", "flavor1"),
        AdmissionCheckStrategyRule.of("ac2")).build(), "ac1", "ac2");
    assertStates(e.admissionChecks("ns/wl"), state("ac1", CheckState.PENDING), state("ac2", CheckState.PENDING));
    assertThat(e.isAdmitted("ns/wl")).isFalse();
  }

  @Test
  void reconcile_assignAdmissionChecksFromAdmissionChecks() {
    AdmissionEngine e = reserved(cq("cq").admissionChecks("ac1", "ac2").build(), "ac1", "ac2");
    assertStates(e.admissionChecks("ns/wl"), state("ac1", CheckState.PENDING), state("ac2", CheckState.PENDING));
    assertThat(e.isAdmitted("ns/wl")).isFalse();
  }

  @Test
  void reconcile_admit() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check").build(), "check");
    CheckOutcome o = e.setCheckState("ns/wl", state("check", CheckState.READY)).orElseThrow();
    assertThat(o).isEqualTo(new CheckOutcome("ns/wl", "q1", CheckOutcome.Kind.ADMITTED, "The workload is admitted"));
    assertThat(e.isAdmitted("ns/wl")).isTrue();
    assertStates(e.admissionChecks("ns/wl"), state("check", CheckState.READY));
    assertThat(events.all()).containsExactly(
        "ns/wl Normal Admitted: Admitted by ClusterQueue q1, wait time since reservation was 0s");
  }

  @Test
  void reconcile_alreadyAdmitted() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check").build(), "check");
    e.setCheckState("ns/wl", state("check", CheckState.READY));
    assertThat(e.setCheckState("ns/wl", state("check", CheckState.READY))).isEmpty();
    assertThat(e.isAdmitted("ns/wl")).isTrue();
  }

  // TestReconcileEviction

  private static final String REJECTED_CHECK = "The workload is deactivated due to AdmissionCheck in Rejected "
      + "state: \"check\"";

  /** Upstream's AdmissionCheckRejected event, then the eviction's, which upstream's next reconcile records. */
  private void assertDeactivationEvents(String checks) {
    assertThat(events.all()).containsExactly(
        "ns/wl Warning AdmissionCheckRejected: Deactivated due to " + checks,
        "ns/wl Normal EvictedDueToDeactivatedDueToAdmissionCheck: The workload is deactivated due to " + checks);
  }

  private static void assertDeactivated(AdmissionEngine e, CheckOutcome o, String message) {
    assertThat(o.kind()).isEqualTo(CheckOutcome.Kind.DEACTIVATED);
    assertThat(o.message()).isEqualTo(message);
    assertThat(e.deactivated("ns/wl")).contains(message);
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(e.isAdmitted("ns/wl")).isFalse();
    assertThat(e.usage("q1", "flavor1", "cpu").milliValue()).isZero();
    assertThat(e.pending("q1")).isEmpty(); // inactive: not queued
  }

  @Test
  void eviction_unadmittedWorkloadWithRejectedChecksGetsDeactivated() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check").build(), "check");
    CheckOutcome o = e.setCheckState("ns/wl", state("check", CheckState.REJECTED)).orElseThrow();
    assertThat(o.message()).endsWith("AdmissionCheck in Rejected state: \"check\"");
    assertDeactivated(e, o, REJECTED_CHECK);
    assertStates(e.admissionChecks("ns/wl"), AdmissionCheckState.of("check", CheckState.PENDING,
        "Reset to Pending after eviction. Previously: Rejected"));
    assertDeactivationEvents("AdmissionCheck in Rejected state: \"check\"");
  }

  @Test
  void eviction_admittedWorkloadWithRejectedChecksGetsDeactivated() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check").build(), "check");
    e.setCheckState("ns/wl", state("check", CheckState.READY));
    assertThat(e.isAdmitted("ns/wl")).isTrue();
    events.clear();
    CheckOutcome o = e.setCheckState("ns/wl", state("check", CheckState.REJECTED)).orElseThrow();
    assertDeactivated(e, o, REJECTED_CHECK);
    assertDeactivationEvents("AdmissionCheck in Rejected state: \"check\"");
  }

  @Test
  void eviction_admittedWorkloadWithRejectedChecksGetsDeactivatedWithMessage() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check").build(), "check");
    e.setCheckState("ns/wl", state("check", CheckState.READY));
    events.clear();
    CheckOutcome o = e.setCheckState("ns/wl", AdmissionCheckState.of("check", CheckState.REJECTED, "quota exceeded"))
        .orElseThrow();
    assertDeactivated(e, o, REJECTED_CHECK + " (quota exceeded)");
    assertDeactivationEvents("AdmissionCheck in Rejected state: \"check\" (quota exceeded)");
  }

  @Test
  void eviction_deactivatedAndAdmissionChecksReset() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check-1", "check-2").build(), "check-1", "check-2");
    CheckOutcome o = e.setCheckStates("ns/wl", List.of(state("check-1", CheckState.REJECTED),
        state("check-2", CheckState.RETRY))).orElseThrow();
    assertDeactivated(e, o, "The workload is deactivated due to AdmissionCheck in Rejected state: \"check-1\"");
    assertStates(e.admissionChecks("ns/wl"),
        AdmissionCheckState.of("check-1", CheckState.PENDING, "Reset to Pending after eviction. Previously: Rejected"),
        AdmissionCheckState.of("check-2", CheckState.PENDING, "Reset to Pending after eviction. Previously: Retry")
            .withRetryCount(1));
    assertDeactivationEvents("AdmissionCheck in Rejected state: \"check-1\"");
  }

  private static void assertEvicted(AdmissionEngine e, CheckOutcome o, String message) {
    assertThat(o.kind()).isEqualTo(CheckOutcome.Kind.EVICTED);
    assertThat(o.message()).isEqualTo(message);
    assertThat(e.admission("ns/wl")).isEmpty();
    assertThat(e.isAdmitted("ns/wl")).isFalse();
    assertThat(e.usage("q1", "flavor1", "cpu").milliValue()).isZero();
    assertThat(e.pending("q1")).containsExactly("ns/wl"); // queued again at once (no requeueAfterSeconds)
    assertThat(e.deactivated("ns/wl")).isEmpty();
  }

  @Test
  void eviction_retryChecksEvictAndChecksBecomePending() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check-1", "check-2").build(), "check-1", "check-2");
    CheckOutcome o = e.setCheckStates("ns/wl", List.of(state("check-1", CheckState.RETRY),
        state("check-2", CheckState.READY))).orElseThrow();
    assertEvicted(e, o, "Evicted due to AdmissionCheck in Retry state: \"check-1\"");
    assertStates(e.admissionChecks("ns/wl"),
        AdmissionCheckState.of("check-1", CheckState.PENDING, "Reset to Pending after eviction. Previously: Retry")
            .withRetryCount(1),
        AdmissionCheckState.of("check-2", CheckState.PENDING, "Reset to Pending after eviction. Previously: Ready"));
    assertThat(events.all()).containsExactly(
        "ns/wl Normal EvictedDueToAdmissionCheck: Evicted due to AdmissionCheck in Retry state: \"check-1\"");
  }

  @Test
  void eviction_retryChecksEvictAndChecksBecomePendingWithMessage() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check-1", "check-2", "check-3").build(),
        "check-1", "check-2", "check-3");
    CheckOutcome o = e.setCheckStates("ns/wl", List.of(
        AdmissionCheckState.of("check-1", CheckState.RETRY, "infrastructure not prepared"),
        state("check-2", CheckState.READY),
        AdmissionCheckState.of("check-3", CheckState.RETRY, "budget exhausted"))).orElseThrow();
    assertEvicted(e, o, "Evicted due to AdmissionChecks in Retry state: \"check-1\" (infrastructure not prepared); "
        + "\"check-3\" (budget exhausted)");
    assertThat(events.all()).containsExactly("ns/wl Normal EvictedDueToAdmissionCheck: Evicted due to AdmissionChecks "
        + "in Retry state: \"check-1\" (infrastructure not prepared); \"check-3\" (budget exhausted)");
    assertStates(e.admissionChecks("ns/wl"),
        AdmissionCheckState.of("check-1", CheckState.PENDING, "Reset to Pending after eviction. Previously: Retry")
            .withRetryCount(1),
        AdmissionCheckState.of("check-2", CheckState.PENDING, "Reset to Pending after eviction. Previously: Ready"),
        AdmissionCheckState.of("check-3", CheckState.PENDING, "Reset to Pending after eviction. Previously: Retry")
            .withRetryCount(1));
  }

  @Test
  void eviction_retryChecksWithUnhealthyNodes_evictAndChecksBecomePending() {
    AdmissionEngine e = reserved(cq("q1").admissionChecks("check-1", "check-2").build(), "check-1", "check-2");
    e.setCheckStates("ns/wl", List.of(state("check-1", CheckState.READY), state("check-2", CheckState.READY)));
    e.assumeUnhealthyNodes("ns/wl", List.of("xyz"));
    assertThat(e.isAdmitted("ns/wl")).isTrue();
    events.clear();

    CheckOutcome o = e.setCheckStates("ns/wl", List.of(state("check-1", CheckState.RETRY),
        state("check-2", CheckState.READY))).orElseThrow();

    assertEvicted(e, o, "Evicted due to AdmissionCheck in Retry state: \"check-1\"");
    assertStates(e.admissionChecks("ns/wl"),
        AdmissionCheckState.of("check-1", CheckState.PENDING, "Reset to Pending after eviction. Previously: Retry")
            .withRetryCount(1),
        AdmissionCheckState.of("check-2", CheckState.PENDING, "Reset to Pending after eviction. Previously: Ready"));
    assertThat(e.unhealthyNodes("ns/wl")).as("cleared with the quota").isEmpty();
    assertThat(events.all()).containsExactly(
        "ns/wl Normal EvictedDueToAdmissionCheck: Evicted due to AdmissionCheck in Retry state: \"check-1\"");
  }
}
