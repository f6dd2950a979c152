package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/cache/queue/afs/entry_penalties_test.go} (at commit ff69552e), against
 * {@link AfsUsageLedger}: TestPenaltyBookkeepingIsIdempotentAndExact (9 of 9: a list of pushes and subtractions, then
 * whether a penalty is pending and its amounts), TestPushPenaltySeedsLastUpdateOnlyWhenCreating,
 * TestSubPenaltyDoesNotCreateEntry.
 */
final class KueueAfsLedgerPortTest {
  private static final String LQ = "ns/lq";
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");

  /** A push of {@code amounts} for {@code wl}, or a subtraction if {@code amounts} is empty. */
  record Op(String wl, Map<String, String> amounts) {}

  private static Op push(String wl, String resource, String amount) {
    return new Op(wl, Map.of(resource, amount));
  }

  private static Op sub(String wl) {
    return new Op(wl, Map.of());
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("pushes for distinct workloads accumulate",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl2", "cpu", "3")), true, Map.of("cpu", "5")),
        Arguments.of("re-pushing the same workload replaces instead of stacking",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl1", "cpu", "2")), true, Map.of("cpu", "2")),
        Arguments.of("re-pushing with a different amount keeps the latest",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl1", "cpu", "3")), true, Map.of("cpu", "3")),
        Arguments.of("rollback after replacement subtracts the replacement amount",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl1", "cpu", "3"), sub("ns/wl1")), false, Map.of()),
        Arguments.of("subtracting a workload removes exactly its record",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl2", "cpu", "3"), sub("ns/wl1")), true,
            Map.of("cpu", "3")),
        Arguments.of("subtracting the only workload leaves nothing pending",
            List.of(push("ns/wl1", "cpu", "2"), sub("ns/wl1")), false, Map.of()),
        Arguments.of("subtracting twice is a no-op the second time",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl2", "cpu", "3"), sub("ns/wl1"), sub("ns/wl1")), true,
            Map.of("cpu", "3")),
        Arguments.of("subtracting a workload that never pushed leaves no negative residue", List.of(sub("ns/wl1")),
            false, Map.of()),
        Arguments.of("a workload's subtraction cannot drain another workload's resources",
            List.of(push("ns/wl1", "cpu", "2"), push("ns/wl2", "memory", "4Gi"), sub("ns/wl1")), true,
            Map.of("cpu", "0", "memory", "4Gi")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void penalties_upstreamCase_pendingAndAmountsAsUpstream(String name, List<Op> ops, boolean wantHas,
      Map<String, String> want) {
    AfsUsageLedger ledger = new AfsUsageLedger();
    for (Op op : ops) {
      if (op.amounts().isEmpty()) {
        ledger.subPenalty(LQ, op.wl());
      } else {
        ledger.pushPenalty(LQ, op.wl(), KueueLocalQueueAfsPortTest.amounts(op.amounts()), NOW);
      }
    }

    assertThat(ledger.hasPendingPenalty(LQ)).isEqualTo(wantHas);
    AfsUsageLedger.Entry e = ledger.get(LQ);
    Map<String, BigDecimal> pending = e == null ? Map.of() : e.pendingPenalty();
    want.forEach((r, v) -> assertThat(pending.getOrDefault(r, BigDecimal.ZERO))
        .as(r).isEqualByComparingTo(Quantity.parse(v).toBigDecimal()));
  }

  @Test
  void pushPenalty_seedsLastUpdateOnlyWhenCreating() {
    AfsUsageLedger ledger = new AfsUsageLedger();
    ledger.pushPenalty(LQ, "ns/wl1", KueueLocalQueueAfsPortTest.amounts(Map.of("cpu", "1")), NOW);
    AfsUsageLedger.Entry e = ledger.get(LQ);
    assertThat(e).isNotNull();
    assertThat(e.lastUpdate).isEqualTo(NOW);
    assertThat(e.statusAccounted).isFalse(); // the persisted status is still to be merged

    ledger.pushPenalty(LQ, "ns/wl2", KueueLocalQueueAfsPortTest.amounts(Map.of("cpu", "1")), NOW.plusSeconds(3600));
    assertThat(ledger.get(LQ).lastUpdate).isEqualTo(NOW);
    assertThat(ledger.get(LQ).pendingPenalty().get("cpu")).isEqualByComparingTo("2");
  }

  @Test
  void subPenalty_createsNoEntry() {
    AfsUsageLedger ledger = new AfsUsageLedger();
    assertThat(ledger.subPenalty(LQ, "ns/wl1")).isNull();
    assertThat(ledger.get(LQ)).isNull();

    ledger.pushPenalty(LQ, "ns/other", KueueLocalQueueAfsPortTest.amounts(Map.of("cpu", "2")), NOW);
    ledger.subPenalty(LQ, "ns/wl1");
    assertThat(ledger.get(LQ).pendingPenalty().get("cpu")).isEqualByComparingTo("2");
  }
}
