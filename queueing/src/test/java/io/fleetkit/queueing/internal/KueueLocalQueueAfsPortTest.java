package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.LocalQueueFairSharingStatus;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/controller/core/localqueue_controller_test.go}, {@code
 * TestLocalQueueReconcile} (at commit ff69552e): its 15 admission fair sharing cases, against {@link
 * LocalQueueUsageSampler} (the AFS part of the LocalQueue reconciler) over an {@link AfsUsageLedger}, as upstream
 * drives the reconciler over the queue manager's ledger. Each case gives upstream's ledger entry ({@code
 * initialConsumedResources}: resources, last update relative to now, whether the status was accounted), its pending
 * entry penalty, the LocalQueue's persisted status, the admitted usage of its running workloads (upstream's {@code
 * runningWls}, summed by resource over flavors) and the configuration; and checks upstream's status ({@code
 * status.fairSharing.admissionFairSharingStatus}: its consumed resources, and here also its {@code lastUpdate}, which
 * upstream's comparison ignores), its {@code RequeueAfter} where upstream checks it, and the ledger entry where
 * upstream checks it ({@code wantConsumedResources}), with the pending penalty record kept. The other four cases of
 * the table are the {@code Active} condition's ({@code KueueStopPolicyPortTest}, docs/conformance.md).
 */
final class KueueLocalQueueAfsPortTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final String LQ = "default/lq";
  private static final String PENDING_WL = "default/pending-wl";

  /** Upstream's {@code UsageLedgerEntry} as a case sets or expects it. */
  record Entry(Map<String, String> resources, Duration sinceNow, boolean statusAccounted) {}

  record Case(
      String name,
      AdmissionFairSharing config,
      @Nullable Entry initial,
      Map<String, String> pendingPenalty,
      @Nullable LocalQueueFairSharingStatus persisted,
      Map<String, String> admittedUsage,
      @Nullable LocalQueueFairSharingStatus wantStatus,
      @Nullable Duration wantRequeueAfter,
      @Nullable Entry wantEntry) {
    @Override
    public String toString() {
      return name;
    }
  }

  private static AdmissionFairSharing config(Duration halfLife, Duration sampling) {
    return new AdmissionFairSharing(halfLife, sampling, Map.of());
  }

  private static LocalQueueFairSharingStatus status(Map<String, String> consumed, Instant at) {
    Map<String, Quantity> q = new LinkedHashMap<>();
    consumed.forEach((k, v) -> q.put(k, Quantity.parse(v)));
    return new LocalQueueFairSharingStatus(q, at);
  }

  private static final Duration M5 = Duration.ofMinutes(5);

  static Stream<Arguments> cases() {
    return Stream.of(
        new Case("local queue decaying usage decays if there is no running workloads", config(M5, M5),
            new Entry(Map.of("cpu", "8"), Duration.ofMinutes(-5), true), Map.of(), null, Map.of(),
            status(Map.of("cpu", "4"), NOW), null, null),
        new Case("clamps a future LastUpdate stamped by a concurrent settlement", config(M5, M5),
            new Entry(Map.of("cpu", "8"), Duration.ofMinutes(5), true), Map.of("cpu", "1"), null, Map.of(),
            // elapsed clamps to 0: the usage is kept verbatim; the stored timestamp keeps the later value
            status(Map.of("cpu", "8"), NOW), M5, new Entry(Map.of("cpu", "8"), Duration.ofMinutes(5), true)),
        new Case("local queue decaying usage sums the previous state and running workloads", config(M5, M5),
            new Entry(Map.of("cpu", "8"), Duration.ofMinutes(-5), true), Map.of(), null, Map.of("cpu", "4"),
            status(Map.of("cpu", "6"), NOW), null, null),
        // running: cpu 2 in rf-1, cpu 2 in rf-2, GPU 4 in rf-3
        new Case("local queue decaying usage sums the usage from different flavors and resources", config(M5, M5),
            new Entry(Map.of("cpu", "8", "GPU", "16"), Duration.ofMinutes(-5), true), Map.of(), null,
            Map.of("cpu", "4", "GPU", "4"), status(Map.of("cpu", "6", "GPU", "10"), NOW), null, null),
        new Case("local queue decaying usage sums the previous state and running workloads half time twice larger "
            + "than sampling", config(Duration.ofMinutes(10), M5),
            new Entry(Map.of("cpu", "8"), Duration.ofMinutes(-5), true), Map.of(), null, Map.of("cpu", "4"),
            status(Map.of("cpu", "6828427124n"), NOW), null, null),
        new Case("local queue decaying usage sums the previous state and running workloads with long half time",
            config(Duration.ofHours(24), M5), new Entry(Map.of("cpu", "8"), Duration.ofMinutes(-5), true), Map.of(),
            null, Map.of(), status(Map.of("cpu", "7980769063n"), NOW), null, null),
        new Case("local queue decaying usage sums the previous state and running GPU workloads half time twice larger "
            + "than sampling", config(Duration.ofMinutes(10), M5),
            new Entry(Map.of("GPU", "8"), Duration.ofMinutes(-5), true), Map.of(), null, Map.of("GPU", "4"),
            status(Map.of("GPU", "6828427124n"), NOW), null, null),
        new Case("local queue decaying usage resets to 0 when half life is 0", config(Duration.ZERO, M5),
            new Entry(Map.of("GPU", "8"), Duration.ofMinutes(-5), true), Map.of(), null, Map.of("GPU", "4"),
            status(Map.of(), NOW), null, null),
        new Case("local queue decaying usage is not reconciled if not enough time has passed", config(M5, M5),
            new Entry(Map.of("cpu", "8"), Duration.ofMinutes(-4), true), Map.of(),
            status(Map.of("cpu", "8"), NOW.minus(Duration.ofMinutes(4))), Map.of(),
            status(Map.of("cpu", "8"), NOW.minus(Duration.ofMinutes(4))), Duration.ofMinutes(1), null),
        new Case("local queue with uninitialized cache initializes status", config(M5, M5), null, Map.of(), null,
            Map.of(), status(Map.of(), NOW), null, null),
        // the admitted workload is not counted at full weight: its entry penalty prices it (#12783)
        new Case("local queue with uninitialized cache and no prior status seeds empty usage", config(M5, M5), null,
            Map.of(), null, Map.of("cpu", "4"), status(Map.of("cpu", "0"), NOW), null, null),
        // restart recovery: the persisted 8 CPU is restored verbatim; the first tick folds no live usage
        new Case("local queue with uninitialized cache seeds from persisted status usage", config(M5, M5), null,
            Map.of(), status(Map.of("cpu", "8"), NOW.minus(M5)), Map.of("cpu", "4"), status(Map.of("cpu", "8"), NOW),
            null, null),
        // 2 (settlement) + 8 (persisted) = 10, then 10*0.5 + 4*0.5 = 7
        new Case("local queue seed merges persisted status into a settlement-created entry", config(M5, M5),
            new Entry(Map.of("cpu", "2"), Duration.ofMinutes(-5), false), Map.of(),
            status(Map.of("cpu", "8"), NOW.minus(M5)), Map.of("cpu", "4"), status(Map.of("cpu", "7"), NOW), null,
            new Entry(Map.of("cpu", "7"), Duration.ZERO, true)),
        // 2*0.5 + 4*0.5 = 3: the persisted 8 CPU is not added again
        new Case("local queue seed does not re-merge persisted status into an accounted entry", config(M5, M5),
            new Entry(Map.of("cpu", "2"), Duration.ofMinutes(-5), true), Map.of(),
            status(Map.of("cpu", "8"), NOW.minus(M5)), Map.of("cpu", "4"), status(Map.of("cpu", "3"), NOW), null,
            new Entry(Map.of("cpu", "3"), Duration.ZERO, true)),
        // 1s ago, within the 5s sampling interval: 4s remain, nothing is written
        new Case("AFS reconcile skips when cache is recent but status lacks AdmissionFairSharingStatus",
            config(Duration.ofSeconds(60), Duration.ofSeconds(5)),
            new Entry(Map.of("cpu", "500m"), Duration.ofSeconds(-1), true), Map.of(), null, Map.of(), null,
            Duration.ofSeconds(4), null))
        .map(Arguments::of);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void reconcile_upstreamCase_statusRequeueAndLedgerAsUpstream(Case tc) {
    AfsUsageLedger ledger = new AfsUsageLedger();
    LocalQueueUsageSampler sampler = new LocalQueueUsageSampler(tc.config(), ledger);
    if (tc.initial() != null) {
      AfsUsageLedger.Entry e = ledger.getOrCreate(LQ, NOW.plus(tc.initial().sinceNow()));
      e.resources = amounts(tc.initial().resources());
      e.statusAccounted = tc.initial().statusAccounted();
    }
    if (!tc.pendingPenalty().isEmpty()) {
      ledger.pushPenalty(LQ, PENDING_WL, amounts(tc.pendingPenalty()), NOW);
    }
    sampler.status(LQ, tc.persisted());

    Duration requeueAfter = sampler.reconcile(LQ, amounts(tc.admittedUsage()), NOW);

    assertThat(sampler.status(LQ)).isEqualTo(tc.wantStatus());
    if (tc.wantRequeueAfter() != null) {
      assertThat(requeueAfter).isEqualTo(tc.wantRequeueAfter());
    }
    if (!tc.pendingPenalty().isEmpty()) {
      assertThat(ledger.get(LQ).penalties).containsKey(PENDING_WL); // the tick keeps the per-workload record
    }
    if (tc.wantEntry() != null) {
      AfsUsageLedger.Entry got = ledger.get(LQ);
      assertThat(got).isNotNull();
      assertThat(LocalQueueUsageSampler.quantities(got.resources))
          .isEqualTo(LocalQueueUsageSampler.quantities(amounts(tc.wantEntry().resources())));
      assertThat(got.lastUpdate).isEqualTo(NOW.plus(tc.wantEntry().sinceNow()));
      assertThat(got.statusAccounted).isEqualTo(tc.wantEntry().statusAccounted());
    }
  }

  static TreeMap<String, BigDecimal> amounts(Map<String, String> values) {
    TreeMap<String, BigDecimal> out = new TreeMap<>();
    values.forEach((k, v) -> out.put(k, Quantity.parse(v).toBigDecimal()));
    return out;
  }
}
