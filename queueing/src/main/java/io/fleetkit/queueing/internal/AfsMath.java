package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.AdmissionFairSharing;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;

/**
 * Admission fair sharing's arithmetic, after Kueue's {@code pkg/util/admissionfairsharing} and {@code
 * pkg/util/resource.MulByFloat}. Amounts are exact decimals by resource name; a product is rounded down to nine
 * decimal places (Kueue's fixed scale), so that a value scaled again and again by a factor below 1 decays to zero.
 */
final class AfsMath {
  /** Kueue's {@code mulByFloatScale}. */
  static final int SCALE = 9;

  private AfsMath() {}

  /** Kueue's {@code calculateAlphaRate}: {@code 1 - 0.5^(sampling / halfLife)}, 0 when the half-life is 0. */
  static double alpha(double samplingSeconds, double halfLifeSeconds) {
    if (halfLifeSeconds == 0) {
      return 0.0;
    }
    return 1.0 - Math.pow(0.5, samplingSeconds / halfLifeSeconds);
  }

  /** A duration in seconds, as Go's {@code Duration.Seconds()}. */
  static double seconds(Duration d) {
    return d.getSeconds() + d.getNano() / 1e9;
  }

  /**
   * Kueue's {@code MulByFloat}: every amount times {@code f} (finite), rounded down to {@link #SCALE} places. The
   * factor is taken at its shortest decimal form, as Go's {@code FormatFloat(f, 'f', -1, 64)}.
   */
  static TreeMap<String, BigDecimal> multiply(Map<String, BigDecimal> amounts, double f) {
    if (!Double.isFinite(f)) {
      throw new IllegalArgumentException("admission fair sharing: factor " + f + " must be finite");
    }
    BigDecimal factor = new BigDecimal(Double.toString(f));
    TreeMap<String, BigDecimal> out = new TreeMap<>();
    for (Map.Entry<String, BigDecimal> e : amounts.entrySet()) {
      out.put(e.getKey(), e.getValue().multiply(factor).setScale(SCALE, RoundingMode.DOWN));
    }
    return out;
  }

  /** Kueue's {@code MergeResourceListKeepSum}: every resource of either, the sum where both have it. */
  static TreeMap<String, BigDecimal> sum(Map<String, BigDecimal> a, Map<String, BigDecimal> b) {
    TreeMap<String, BigDecimal> out = new TreeMap<>(a);
    for (Map.Entry<String, BigDecimal> e : b.entrySet()) {
      out.merge(e.getKey(), e.getValue(), BigDecimal::add);
    }
    return out;
  }

  /**
   * Kueue's {@code CalculateDecayedConsumed}: {@code old * (1 - a) + current * a} with {@code a = alpha(elapsed,
   * halfLife)}.
   */
  static TreeMap<String, BigDecimal> decayed(Map<String, BigDecimal> old, Map<String, BigDecimal> current,
      double elapsedSeconds, double halfLifeSeconds) {
    double a = alpha(elapsedSeconds, halfLifeSeconds);
    return sum(multiply(old, 1 - a), multiply(current, a));
  }

  /**
   * Kueue's {@code CalculateEntryPenalty}: what a reservation of {@code requests} adds to its LocalQueue's usage until
   * its workload is admitted, {@code requests * alpha(samplingInterval, halfLife)}.
   */
  static TreeMap<String, BigDecimal> entryPenalty(Map<String, BigDecimal> requests, AdmissionFairSharing config) {
    return multiply(requests, alpha(seconds(config.usageSamplingInterval()), seconds(config.usageHalfLifeTime())));
  }

  /**
   * Kueue's {@code CalculateUsage}: the weighted sum of the consumed resources and pending penalties, divided by the
   * LocalQueue's weight; positive infinity for a weight that is not positive (last in the order, never NaN).
   */
  static double usage(Map<String, BigDecimal> consumed, Map<String, BigDecimal> penalty, double lqWeight,
      AdmissionFairSharing config) {
    double usage = 0;
    for (Map.Entry<String, BigDecimal> e : sum(consumed, penalty).entrySet()) {
      usage += config.resourceWeight(e.getKey()) * e.getValue().doubleValue();
    }
    if (lqWeight <= 0) {
      return Double.POSITIVE_INFINITY;
    }
    return usage / lqWeight;
  }
}
