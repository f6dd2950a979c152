package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionFairSharing;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ported from kubernetes-sigs/kueue {@code pkg/util/admissionfairsharing/admission_fair_sharing_test.go} (at commit
 * ff69552e), against {@link AfsMath}: TestCalculateEntryPenaltyWithLongHalfLife,
 * TestCalculateDecayedConsumedAccumulatesSubMilli, TestCalculateDecayedConsumedConvergesToUsage,
 * TestCalculateDecayedConsumedKeepsLargeQuantitiesPositive, TestCalculateUsageWithNonPositiveWeight (5 of its 8
 * tests; the others are an API read and DRA resources, docs/conformance.md).
 */
final class KueueAfsMathPortTest {
  /** A week-long half-life sampled every five minutes: a per-sample contribution below one milli-unit. */
  private static final double LONG_HALF_LIFE = 168 * 3600;
  private static final double SAMPLING = 5 * 60;

  private static TreeMap<String, BigDecimal> amounts(String... kv) {
    TreeMap<String, BigDecimal> out = new TreeMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      out.put(kv[i], Quantity.parse(kv[i + 1]).toBigDecimal());
    }
    return out;
  }

  @Test
  void entryPenalty_longHalfLife_positive() {
    AdmissionFairSharing cfg = new AdmissionFairSharing(Duration.ofHours(168), Duration.ofMinutes(5), Map.of());
    TreeMap<String, BigDecimal> penalty = AfsMath.entryPenalty(amounts("cpu", "2", "nvidia.com/gpu", "1"), cfg);
    assertThat(penalty.get("cpu").signum()).isPositive();
    assertThat(penalty.get("nvidia.com/gpu").signum()).isPositive();
  }

  @Test
  void decayed_subMilliContributions_accumulate() {
    TreeMap<String, BigDecimal> usage = amounts("cpu", "2", "nvidia.com/gpu", "1");
    TreeMap<String, BigDecimal> consumed = new TreeMap<>();
    BigDecimal prevCpu = BigDecimal.ZERO;
    BigDecimal prevGpu = BigDecimal.ZERO;
    for (int sample = 1; sample <= 3; sample++) {
      consumed = AfsMath.decayed(consumed, usage, SAMPLING, LONG_HALF_LIFE);
      assertThat(consumed.get("cpu")).as("cpu at sample %d", sample).isGreaterThan(prevCpu);
      assertThat(consumed.get("nvidia.com/gpu")).as("gpu at sample %d", sample).isGreaterThan(prevGpu);
      prevCpu = consumed.get("cpu");
      prevGpu = consumed.get("nvidia.com/gpu");
    }
  }

  /** 1 - 0.5^n of the way to the usage after n half-lives, within a milli-unit, never above the usage. */
  @Test
  void decayed_convergesToUsageOnTheHalfLifeCurve() {
    int samplesPerHalfLife = 2016; // 168h / 5m
    TreeMap<String, BigDecimal> usage = amounts("cpu", "2");
    TreeMap<String, BigDecimal> consumed = new TreeMap<>();
    String[] want = {"1", "1500m", "1750m"};
    BigDecimal tolerance = new BigDecimal("0.001");
    for (int halfLives = 1; halfLives <= 3; halfLives++) {
      for (int i = 0; i < samplesPerHalfLife; i++) {
        consumed = AfsMath.decayed(consumed, usage, SAMPLING, LONG_HALF_LIFE);
      }
      BigDecimal got = consumed.get("cpu");
      BigDecimal w = Quantity.parse(want[halfLives - 1]).toBigDecimal();
      assertThat(got).as("after %d half-lives", halfLives).isBetween(w.subtract(tolerance), w.add(tolerance));
      assertThat(got).isLessThanOrEqualTo(usage.get("cpu"));
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"16Gi", "1Ti", "64Ti"})
  void decayed_largeQuantities_stayPositive(String size) {
    TreeMap<String, BigDecimal> consumed =
        AfsMath.decayed(new TreeMap<>(), amounts("memory", size), SAMPLING, LONG_HALF_LIFE);
    assertThat(consumed.get("memory").signum()).isPositive();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"'zero weight, idle queue (no usage)', '', 0", "'zero weight, active queue', 4, 0",
      "'negative weight', 4, -1"})
  void usage_nonPositiveWeight_isPositiveInfinity(String name, String cpu, double weight) {
    TreeMap<String, BigDecimal> consumed = cpu == null || cpu.isEmpty() ? new TreeMap<>() : amounts("cpu", cpu);
    double got = AfsMath.usage(consumed, Map.of(), weight, AdmissionFairSharing.of(Duration.ZERO));
    assertThat(got).isNotNaN().isEqualTo(Double.POSITIVE_INFINITY);
  }
}
