package io.fleetkit.queueing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.AdmissionChecks.AdmittedSync;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/workload/admissionchecks_test.go} (commit ff69552e): {@code
 * TestSyncAdmittedCondition} with Kueue's default gates (unadmitted-workload observability on, explicit status off),
 * and {@code TestGetMaxRetryTime}. Kueue compares conditions without their messages and transition times, so the
 * status and the reason are asserted here, and the accumulated admitted time where the case sets one. The two
 * topology-aware cases pass the reservation's {@link QuotaReservation#topologyPending()} (a pod set with a pending
 * delayed topology request and no assignment).
 */
final class KueueAdmissionChecksPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final Instant BEFORE = NOW.minusSeconds(1);

  private static AdmissionCheckState check(String name, CheckState state) {
    return AdmissionCheckState.of(name, state, "");
  }

  private static AdmittedCondition admitted(boolean status, Instant at) {
    return new AdmittedCondition(status, status ? "ByTest" : "", "", at);
  }

  private static void assertSync(AdmittedSync got, @Nullable Boolean status, @Nullable String reason,
      boolean changed) {
    assertThat(got.changed()).as("changed").isEqualTo(changed);
    if (status == null) {
      assertThat(got.condition()).isNull();
    } else {
      assertThat(got.condition()).isNotNull();
      assertThat(got.condition().status()).isEqualTo(status);
      assertThat(got.condition().reason()).isEqualTo(reason);
    }
  }

  // TestSyncAdmittedCondition

  @Test
  void sync_empty() {
    assertSync(AdmissionChecks.syncAdmitted(null, List.of(), null, null, NOW), null, null, false);
  }

  /** "pending delayed topology request; flip from Admitted=true". */
  @Test
  void sync_pendingDelayedTopologyRequest_flipsFromAdmitted() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true, List.of(check("check1", CheckState.READY)),
        pendingDelayed().topologyPending(), admitted(true, BEFORE), null, NOW);
    assertSync(got, false, AdmissionChecks.REASON_PENDING_DELAYED_TOPOLOGY, true);
  }

  /**
   * "pending delayed topology request; already Admitted=false": upstream's change is {@code
   * WantChangeWithObservability(false)}, true with the observability gate on (the reason is set).
   */
  @Test
  void sync_pendingDelayedTopologyRequest_alreadyNotAdmitted() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true, List.of(check("check1", CheckState.READY)),
        pendingDelayed().topologyPending(), admitted(false, BEFORE), null, NOW);
    assertSync(got, false, AdmissionChecks.REASON_PENDING_DELAYED_TOPOLOGY, true);
  }

  /** Upstream's admission: one pod set of 1 pod whose delayed topology request is pending. */
  private static QuotaReservation pendingDelayed() {
    return new QuotaReservation("default/wl", "cq", List.of(new PodSetAssignment("main", 1, java.util.Map.of(),
        io.fleetkit.api.resource.ResourceList.EMPTY, null, DelayedTopologyRequest.PENDING)), NOW, false);
  }

  @Test
  void sync_reservationNoChecks() {
    assertSync(AdmissionChecks.syncAdmitted(true, List.of(), null, null, NOW), true, "Admitted", true);
  }

  @Test
  void sync_reservationChecksNotReady() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true,
        List.of(check("check1", CheckState.PENDING), check("check2", CheckState.READY)), null, null, NOW);
    assertSync(got, false, AdmissionChecks.REASON_UNSATISFIED_CHECKS, true);
  }

  @Test
  void sync_reservationChecksReady() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.READY)), null, null, NOW);
    assertSync(got, true, "Admitted", true);
  }

  @Test
  void sync_reservationLost() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.READY)), admitted(true, BEFORE), null,
        NOW);
    assertSync(got, false, AdmissionChecks.REASON_NO_RESERVATION, true);
    assertThat(got.accumulatedPastExecutionTimeSeconds()).isEqualTo(1);
  }

  @Test
  void sync_checkLost() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.PENDING)), admitted(true, BEFORE), null,
        NOW);
    assertSync(got, false, AdmissionChecks.REASON_UNSATISFIED_CHECKS, true);
    assertThat(got.accumulatedPastExecutionTimeSeconds()).isEqualTo(1);
  }

  @Test
  void sync_reservationAndCheckLost() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.PENDING)), admitted(true, BEFORE), null,
        NOW);
    assertSync(got, false, AdmissionChecks.REASON_NO_RESERVATION, true);
  }

  @Test
  void sync_reservationLostWithPastAdmittedTimeSet() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null, List.of(), admitted(true, BEFORE), null, NOW);
    assertSync(got, false, AdmissionChecks.REASON_NO_RESERVATION, true);
    assertThat(got.accumulatedPastExecutionTimeSeconds()).isEqualTo(1);
  }

  @Test
  void sync_reservationLostWithPastAdmittedTimeAdd() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null, List.of(), admitted(true, BEFORE), 1, NOW);
    assertSync(got, false, AdmissionChecks.REASON_NO_RESERVATION, true);
    assertThat(got.accumulatedPastExecutionTimeSeconds()).isEqualTo(2);
  }

  @Test
  void sync_reservationChecksNotReadyWithObservability() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true,
        List.of(check("check1", CheckState.PENDING), check("check2", CheckState.READY)), null, null, NOW);
    assertSync(got, false, AdmissionChecks.REASON_UNSATISFIED_CHECKS, true);
  }

  @Test
  void sync_reservationLostWithObservability() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.READY)), admitted(true, BEFORE), null,
        NOW);
    assertSync(got, false, AdmissionChecks.REASON_NO_RESERVATION, true);
    assertThat(got.accumulatedPastExecutionTimeSeconds()).isEqualTo(1);
  }

  @Test
  void sync_checkLostWithObservability() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(true,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.PENDING)), admitted(true, BEFORE), null,
        NOW);
    assertSync(got, false, AdmissionChecks.REASON_UNSATISFIED_CHECKS, true);
    assertThat(got.accumulatedPastExecutionTimeSeconds()).isEqualTo(1);
  }

  @Test
  void sync_reservationAndCheckLostWithObservability() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null,
        List.of(check("check1", CheckState.READY), check("check2", CheckState.PENDING)), admitted(true, BEFORE), null,
        NOW);
    assertSync(got, false, AdmissionChecks.REASON_NO_RESERVATION, true);
  }

  @Test
  void sync_noReservationNoConditionInitially() {
    AdmittedSync got = AdmissionChecks.syncAdmitted(null, List.of(check("check1", CheckState.PENDING)), null, null,
        NOW);
    assertSync(got, null, null, false);
  }

  @Test
  void sync_alreadyAdmittedIsNoChange() {
    // upstream's "reservation, checks ready" run a second time: SetStatusCondition reports no change
    AdmittedSync first = AdmissionChecks.syncAdmitted(true, List.of(check("check1", CheckState.READY)), null, null,
        NOW);
    AdmittedSync again = AdmissionChecks.syncAdmitted(true, List.of(check("check1", CheckState.READY)),
        first.condition(), null, NOW.plusSeconds(5));
    assertThat(again.changed()).isFalse();
    assertThat(again.condition().lastTransitionTime()).isEqualTo(NOW);
  }

  // TestGetMaxRetryTime

  private static final Instant BASE = Instant.parse("2025-01-01T12:00:00Z");

  private static AdmissionCheckState retry(String name, Instant at, @Nullable Integer after) {
    return new AdmissionCheckState(name, CheckState.RETRY, at, "", after, null, List.of());
  }

  @Test
  void maxRetry_noAdmissionChecks() {
    assertThat(AdmissionChecks.maxRetryTime(List.of())).isNull();
  }

  @Test
  void maxRetry_nilRequeueAfterSeconds() {
    assertThat(AdmissionChecks.maxRetryTime(List.of(retry("check1", BASE, null)))).isNull();
  }

  @Test
  void maxRetry_zeroLastTransitionTime() {
    assertThat(AdmissionChecks.maxRetryTime(List.of(retry("check1", Instant.EPOCH, 60)))).isNull();
  }

  @Test
  void maxRetry_singleCheckWithValidRetryTime() {
    assertThat(AdmissionChecks.maxRetryTime(List.of(retry("check1", BASE, 60)))).isEqualTo(BASE.plusSeconds(60));
  }

  @Test
  void maxRetry_multipleChecksReturnsMax() {
    assertThat(AdmissionChecks.maxRetryTime(List.of(retry("check1", BASE, 60), retry("check2", BASE, 120),
        retry("check3", BASE, 30)))).isEqualTo(BASE.plusSeconds(120));
  }

  @Test
  void maxRetry_mixedNilAndValid() {
    assertThat(AdmissionChecks.maxRetryTime(List.of(retry("check1", BASE, null), retry("check2", BASE, 90),
        retry("check3", Instant.EPOCH, 180)))).isEqualTo(BASE.plusSeconds(90));
  }

  @Test
  void maxRetry_differentBaseTimes() {
    assertThat(AdmissionChecks.maxRetryTime(List.of(retry("check1", BASE, 60),
        retry("check2", BASE.plusSeconds(30), 60)))).isEqualTo(BASE.plusSeconds(90));
  }
}
