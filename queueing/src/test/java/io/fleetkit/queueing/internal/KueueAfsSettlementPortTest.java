package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.time.ManualClock;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.AdmissionMode;
import io.fleetkit.queueing.CheckState;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/controller/core/workload_controller_test.go} (at commit ff69552e): the
 * entry penalty's lifecycle, with a half-life equal to the sampling interval so that a 4-CPU workload's penalty is 2
 * CPUs.
 *
 * <ul>
 *   <li>TestUpdateAfsConsumedUsage (3 of 3) and TestRepeatedAfsSettlementFoldsPenaltyOnce, against {@link
 *       LocalQueueUsageSampler#settle} (upstream's {@code updateAfsConsumedUsage}) over a seeded ledger, the workload
 *       admitted in no cache (its admitted usage empty, as upstream's);
 *   <li>through the engine's scheduler (a reservation's push, its checks, deletion): TestUpdateSettlesAfsEntryPenalty
 *       (4 of 5), TestDeleteSubtractsPendingAfsEntryPenalty (1 of 1), TestUpdateDropsUnsettleableAfsEntryPenalty (3
 *       of 5). Not modelled: a workload moving to another LocalQueue (its queue is fixed at submission), and a
 *       deactivation that keeps the reservation (the engine's deactivation releases it), the cases
 *       "deactivation in the same event does not settle and keeps the record", "moving to another LocalQueue drops
 *       the record under the previous one", "deactivation that keeps the reservation keeps the record".
 * </ul>
 */
final class KueueAfsSettlementPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final AdmissionFairSharing AFS =
      new AdmissionFairSharing(Duration.ofMinutes(5), Duration.ofMinutes(5), Map.of());
  private static final String LQ = "ns/lq";
  private static final String WL = "ns/wl";

  private static TreeMap<String, BigDecimal> cpu(String v) {
    return KueueLocalQueueAfsPortTest.amounts(Map.of("cpu", v));
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
      "'creates a penalty-only entry on a cache miss', , 0, false, 2, false, 0",
      "'folds into an existing entry and preserves StatusAccounted', 8, 0, true, 10, true, 0",
      // elapsed clamps to 0: the old usage kept verbatim, the stored timestamp monotonic at the later value
      "'clamps a future LastUpdate and keeps the timestamp monotonic', 8, 300, true, 10, true, 300"})
  void settle_testUpdateAfsConsumedUsageCase(String name, @Nullable String initialCpu, long initialAfter,
      boolean accounted, String wantCpu, boolean wantAccounted, long wantLastUpdateAfter) {
    AfsUsageLedger ledger = new AfsUsageLedger();
    LocalQueueUsageSampler sampler = new LocalQueueUsageSampler(AFS, ledger);
    if (initialCpu != null) {
      AfsUsageLedger.Entry e = ledger.getOrCreate(LQ, NOW.plusSeconds(initialAfter));
      e.resources = cpu(initialCpu);
      e.statusAccounted = accounted;
    }
    ledger.pushPenalty(LQ, WL, cpu("2"), NOW); // what the scheduler pushed when it reserved

    sampler.settle(LQ, WL, Map.of(), NOW);

    AfsUsageLedger.Entry got = ledger.get(LQ);
    assertThat(got.resources.get("cpu")).isEqualByComparingTo(wantCpu);
    assertThat(got.lastUpdate).isEqualTo(NOW.plusSeconds(wantLastUpdateAfter));
    assertThat(got.statusAccounted).isEqualTo(wantAccounted);
    assertThat(got.hasPendingPenalty()).isFalse();
  }

  @Test
  void settle_twice_foldsThePenaltyOnce() {
    AfsUsageLedger ledger = new AfsUsageLedger();
    LocalQueueUsageSampler sampler = new LocalQueueUsageSampler(AFS, ledger);
    ledger.pushPenalty(LQ, WL, cpu("2"), NOW);

    sampler.settle(LQ, WL, Map.of(), NOW);
    sampler.settle(LQ, WL, Map.of(), NOW);

    assertThat(ledger.get(LQ).resources.get("cpu")).isEqualByComparingTo("2");
    assertThat(ledger.hasPendingPenalty(LQ)).isFalse();
  }

  private static QueueScheduler scheduler(boolean withCheck) {
    ClusterQueue.Builder cq = ClusterQueue.builder("cq")
        .resourceGroup(FlavorQuotas.of("default", FlavorResourceQuota.of("cpu", "8")))
        .admissionMode(AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING);
    if (withCheck) {
      cq.admissionChecks("prov");
    }
    QueueScheduler s = new QueueScheduler(new ManualClock(NOW), List.of(ResourceFlavor.of("default")),
        List.of(cq.build()), List.of(), List.of(LocalQueue.of("ns", "lq", "cq")), Map.of(), false,
        List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE),
        withCheck ? List.of(AdmissionCheck.of("prov", "x")) : List.of(), List.of());
    s.admissionFairSharing(AFS);
    s.submit(Workload.builder("ns", "wl").queueName("lq").request("cpu", "4").creationTime(NOW).build());
    return s;
  }

  private static BigDecimal folded(QueueScheduler s) {
    return s.afsAccounting().ledger().get(LQ).resources.getOrDefault("cpu", BigDecimal.ZERO);
  }

  private static boolean pending(QueueScheduler s) {
    return s.afsAccounting().ledger().hasPendingPenalty(LQ);
  }

  private static void check(QueueScheduler s, CheckState state) {
    s.setCheckStates(WL, List.of(AdmissionCheckState.of("prov", state, "")));
  }

  @Test
  void pendingToAdmitted_settlesTheEntryPenalty() {
    QueueScheduler s = scheduler(false);
    s.schedule(); // reserved and admitted in one cycle: no checks
    assertThat(s.isAdmitted(WL)).isTrue();
    assertThat(folded(s)).isEqualByComparingTo("2");
    assertThat(pending(s)).isFalse();
  }

  @Test
  void quotaReservedToAdmitted_settlesTheEntryPenalty() {
    QueueScheduler s = scheduler(true);
    s.schedule();
    check(s, CheckState.READY);
    assertThat(s.isAdmitted(WL)).isTrue();
    assertThat(folded(s)).isEqualByComparingTo("2");
    assertThat(pending(s)).isFalse();
  }

  @Test
  void pendingToQuotaReserved_doesNotSettleTheEntryPenalty() {
    QueueScheduler s = scheduler(true);
    s.schedule();
    assertThat(s.isAdmitted(WL)).isFalse();
    assertThat(pending(s)).isTrue();
    assertThat(folded(s)).isEqualByComparingTo("0");
  }

  /** Upstream's "Admitted to Admitted": an admitted workload's checks set Ready again settle nothing more. */
  @Test
  void admittedToAdmitted_doesNotSettleAgain() {
    QueueScheduler s = scheduler(true);
    s.schedule();
    check(s, CheckState.READY);
    check(s, CheckState.READY);
    assertThat(folded(s)).isEqualByComparingTo("2");
    assertThat(pending(s)).isFalse();
  }

  /** TestDeleteSubtractsPendingAfsEntryPenalty, and "finishing without admission drops the record". */
  @Test
  void deleteOfAReservedWorkload_dropsThePenaltyUnsettled() {
    QueueScheduler s = scheduler(true);
    s.schedule();
    assertThat(pending(s)).isTrue();
    s.delete(WL);
    assertThat(pending(s)).isFalse();
    assertThat(folded(s)).isEqualByComparingTo("0");
  }

  /** "deactivation with the reservation gone drops the record": a Rejected check deactivates the workload. */
  @Test
  void deactivation_dropsTheRecord() {
    QueueScheduler s = scheduler(true);
    s.schedule();
    check(s, CheckState.REJECTED);
    assertThat(s.deactivatedMessage(WL)).isNotNull();
    assertThat(pending(s)).isFalse();
  }

  /** "eviction back to pending on the same LocalQueue keeps the record": a Retry check evicts the workload. */
  @Test
  void evictionBackToPending_keepsTheRecord() {
    QueueScheduler s = scheduler(true);
    s.schedule();
    check(s, CheckState.RETRY);
    assertThat(s.admission(WL)).isNull();
    assertThat(pending(s)).isTrue();
  }
}
