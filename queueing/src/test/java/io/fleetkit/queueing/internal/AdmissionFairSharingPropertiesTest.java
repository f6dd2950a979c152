package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.queueing.AdmissionFairSharing;
import io.fleetkit.queueing.Workload;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;

/** Invariants of admission fair sharing's decay and of the queue order it gives. */
final class AdmissionFairSharingPropertiesTest {
  private static final Instant T0 = Instant.parse("2026-03-01T12:00:00Z");

  /**
   * Sampled with no admissions, a LocalQueue's consumed resources never go negative, never grow, and reach exactly
   * zero (the rounding is down) once enough half-lives passed.
   */
  @Property(tries = 300)
  void decay_withoutAdmissions_neverNegativeNeverGrowing_reachesZero(
      @ForAll @LongRange(min = 0, max = 10_000_000_000L) long milli,
      @ForAll @IntRange(min = 1, max = 86_400) int halfLifeSeconds,
      @ForAll @IntRange(min = -10, max = 10) int shape) {
    // from ten samples per half-life to one sample per eleven half-lives
    int samplingSeconds = shape > 0 ? Math.max(1, halfLifeSeconds / shape) : halfLifeSeconds * (1 - shape);
    AdmissionFairSharing cfg = new AdmissionFairSharing(Duration.ofSeconds(halfLifeSeconds),
        Duration.ofSeconds(samplingSeconds), Map.of());
    LocalQueueUsageSampler sampler = new LocalQueueUsageSampler(cfg, new AfsUsageLedger());
    AfsUsageLedger.Entry e = sampler.ledger().getOrCreate("ns/lq", T0);
    e.resources = new TreeMap<>(Map.of("cpu", BigDecimal.valueOf(milli, 3)));
    e.statusAccounted = true;
    // enough samples for 80 half-lives: 0.5^80 of 1e7 is far below the 1e-9 the rounding keeps
    long samples = (80L * halfLifeSeconds + samplingSeconds - 1) / samplingSeconds;
    Instant now = T0;
    BigDecimal before = e.resources.get("cpu");
    for (long i = 0; i < samples; i++) {
      now = now.plusSeconds(samplingSeconds);
      sampler.reconcile("ns/lq", Map.of(), now);
      BigDecimal after = e.resources.get("cpu");
      assertThat(after.signum()).isGreaterThanOrEqualTo(0);
      assertThat(after).isLessThanOrEqualTo(before);
      before = after;
    }
    assertThat(before.signum()).isZero();
  }

  /** A sample lands between the old consumption and the admitted usage (a weighted mean, rounded down). */
  @Property
  void decay_isBetweenHistoryAndCurrentUsage(
      @ForAll @LongRange(min = 0, max = 1_000_000_000L) long oldMilli,
      @ForAll @LongRange(min = 0, max = 1_000_000_000L) long currentMilli,
      @ForAll @IntRange(min = 0, max = 86_400) int elapsedSeconds,
      @ForAll @IntRange(min = 1, max = 86_400) int halfLifeSeconds) {
    BigDecimal old = BigDecimal.valueOf(oldMilli, 3);
    BigDecimal current = BigDecimal.valueOf(currentMilli, 3);
    BigDecimal got = AfsMath.decayed(Map.of("cpu", old), Map.of("cpu", current), elapsedSeconds, halfLifeSeconds)
        .get("cpu");
    BigDecimal slack = new BigDecimal("0.000000002"); // two products, each rounded down at 1e-9
    assertThat(got).isLessThanOrEqualTo(old.max(current));
    assertThat(got).isGreaterThanOrEqualTo(old.min(current).subtract(slack));
  }

  /**
   * The order is a total order on any queue (antisymmetric and transitive), and at equal consumption a heavier
   * LocalQueue's workloads never come after a lighter one's at the same priority and time.
   */
  @Property(tries = 200)
  void order_isTotal_andConsistentWithWeights(
      @ForAll @Size(min = 2, max = 5) List<@IntRange(min = 0, max = 4) Integer> weights,
      @ForAll @Size(min = 2, max = 5) List<@IntRange(min = 0, max = 20) Integer> consumed,
      @ForAll @Size(min = 3, max = 12) List<@IntRange(min = 0, max = 30) Integer> workloads) {
    int queues = Math.min(weights.size(), consumed.size());
    AdmissionFairSharing cfg = AdmissionFairSharing.of(Duration.ofMinutes(5));
    AfsUsageLedger ledger = new AfsUsageLedger();
    LocalQueueUsageSampler sampler = new LocalQueueUsageSampler(cfg, ledger);
    Map<String, Double> weightOf = new HashMap<>();
    for (int q = 0; q < queues; q++) {
      weightOf.put("ns/lq" + q, (double) weights.get(q));
      ledger.getOrCreate("ns/lq" + q, T0).resources =
          new TreeMap<>(Map.of("cpu", BigDecimal.valueOf(consumed.get(q))));
    }
    AfsOrder order = new AfsOrder(sampler, k -> weightOf.getOrDefault(k, 1.0));
    List<PendingWorkload> ps = new ArrayList<>();
    for (int i = 0; i < workloads.size(); i++) {
      int w = workloads.get(i);
      Workload wl = Workload.builder("ns", "w" + i).queueName("lq" + (w % queues)).priority(w % 3)
          .creationTime(T0.plusSeconds(w % 2)).request("cpu", "1").build();
      ps.add(new PendingWorkload(wl, i));
    }
    for (PendingWorkload a : ps) {
      for (PendingWorkload b : ps) {
        assertThat(Integer.signum(order.compare(a, b))).isEqualTo(-Integer.signum(order.compare(b, a)));
        for (PendingWorkload c : ps) {
          if (order.compare(a, b) <= 0 && order.compare(b, c) <= 0) {
            assertThat(order.compare(a, c)).isLessThanOrEqualTo(0);
          }
        }
        String qa = AfsOrder.lqKey(a);
        String qb = AfsOrder.lqKey(b);
        if (!qa.equals(qb) && consumed.get(index(qa)).equals(consumed.get(index(qb)))
            && weightOf.get(qa) > weightOf.get(qb) && a.priority == b.priority
            && a.workload.creationTime().equals(b.workload.creationTime()) && a.sequence < b.sequence) {
          assertThat(order.compare(a, b)).isLessThan(0);
        }
      }
    }
  }

  private static int index(String lqKey) {
    return Integer.parseInt(lqKey.substring("ns/lq".length()));
  }
}
