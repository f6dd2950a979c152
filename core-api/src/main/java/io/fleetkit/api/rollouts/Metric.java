package io.fleetkit.api.rollouts;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One metric of an analysis (Argo Rollouts' {@code Metric}).
 *
 * @param interval time between measurements; {@code null} for a single measurement
 * @param initialDelay wait before the first measurement; {@code null} for none
 * @param count how many measurements to take; 0 means 1 without an interval and unbounded with one
 * @param successCondition an expression over {@code result}; empty when none
 * @param failureCondition an expression over {@code result}; empty when none
 * @param failureLimit failed measurements tolerated (default 0); -1 disables the limit
 * @param inconclusiveLimit inconclusive measurements tolerated (default 0)
 * @param consecutiveErrorLimit errors in a row tolerated (default {@value #DEFAULT_CONSECUTIVE_ERROR_LIMIT})
 * @param consecutiveSuccessLimit successes in a row that end the metric Successful; 0 means not used
 */
public record Metric(String name, @Nullable Duration interval, @Nullable Duration initialDelay, int count,
    String successCondition, String failureCondition, int failureLimit, int inconclusiveLimit,
    int consecutiveErrorLimit, int consecutiveSuccessLimit, MetricProvider provider) {
  public static final int DEFAULT_CONSECUTIVE_ERROR_LIMIT = 4;

  public Metric {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(successCondition, "successCondition");
    Objects.requireNonNull(failureCondition, "failureCondition");
    Objects.requireNonNull(provider, "provider");
  }

  /** A metric with Argo Rollouts' defaults: one measurement, limits 0, consecutive error limit 4. */
  public static Metric of(String name, MetricProvider provider) {
    return new Metric(name, null, null, 0, "", "", 0, 0, DEFAULT_CONSECUTIVE_ERROR_LIMIT, 0, provider);
  }

  /**
   * Argo Rollouts' {@code EffectiveCount}: {@code count} if positive; 1 without an interval; otherwise {@code null}
   * (measures until the run is terminated).
   */
  public @Nullable Integer effectiveCount() {
    if (count > 0) {
      return count;
    }
    return interval == null ? 1 : null;
  }

  public Metric withInterval(@Nullable Duration v) {
    return new Metric(name, v, initialDelay, count, successCondition, failureCondition, failureLimit,
        inconclusiveLimit, consecutiveErrorLimit, consecutiveSuccessLimit, provider);
  }

  public Metric withCount(int v) {
    return new Metric(name, interval, initialDelay, v, successCondition, failureCondition, failureLimit,
        inconclusiveLimit, consecutiveErrorLimit, consecutiveSuccessLimit, provider);
  }

  public Metric withConditions(String success, String failure) {
    return new Metric(name, interval, initialDelay, count, success, failure, failureLimit, inconclusiveLimit,
        consecutiveErrorLimit, consecutiveSuccessLimit, provider);
  }

  public Metric withLimits(int failure, int inconclusive, int consecutiveError, int consecutiveSuccess) {
    return new Metric(name, interval, initialDelay, count, successCondition, failureCondition, failure, inconclusive,
        consecutiveError, consecutiveSuccess, provider);
  }

  public Metric withInitialDelay(@Nullable Duration v) {
    return new Metric(name, interval, v, count, successCondition, failureCondition, failureLimit, inconclusiveLimit,
        consecutiveErrorLimit, consecutiveSuccessLimit, provider);
  }
}
