package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Kueue's Configuration {@code admissionFairSharing} (feature {@code AdmissionFairSharing}, KEP-4136), given to the
 * engine with {@link AdmissionEngine.Builder#admissionFairSharing}. In a ClusterQueue whose admission mode is {@link
 * AdmissionMode#USAGE_BASED_ADMISSION_FAIR_SHARING}, each LocalQueue's consumed resources decay exponentially: on every
 * sampling interval they become {@code old * (1 - a) + admitted * a} with {@code a = 1 - 0.5^(elapsed / halfLife)},
 * where {@code admitted} is what the LocalQueue's admitted workloads use now; and a reservation adds an entry penalty
 * of {@code requests * (1 - 0.5^(samplingInterval / halfLife))} until its workload is admitted. Pending workloads of
 * the queue are ordered by their LocalQueue's usage {@code sum(resourceWeight * consumed) / weight}, lower first.
 *
 * @param usageHalfLifeTime how long the consumed resources take to halve; zero resets them to zero on every sample
 * @param usageSamplingInterval how often the consumed resources are updated (Kueue's default 5 minutes)
 * @param resourceWeights the weight of each resource in a LocalQueue's usage; a resource not listed weighs 1
 */
public record AdmissionFairSharing(Duration usageHalfLifeTime, Duration usageSamplingInterval,
    Map<String, Double> resourceWeights) {
  /** Kueue's default {@code usageSamplingInterval} ({@code apis/config/v1beta2/defaults.go}). */
  public static final Duration DEFAULT_USAGE_SAMPLING_INTERVAL = Duration.ofMinutes(5);

  /**
   * Validates as Kueue's {@code validateAdmissionFairSharing}.
   *
   * @throws io.fleetkit.api.ValidationException naming the field: a negative half-life, a sampling interval that is
   *     not positive, or a negative or non-finite resource weight
   */
  public AdmissionFairSharing {
    Objects.requireNonNull(usageHalfLifeTime, "usageHalfLifeTime");
    Objects.requireNonNull(usageSamplingInterval, "usageSamplingInterval");
    Objects.requireNonNull(resourceWeights, "resourceWeights");
    Violations v = new Violations("Configuration", "", "admissionFairSharing");
    if (usageHalfLifeTime.isNegative()) {
      v.add("admissionFairSharing.usageHalfLifeTime", "must be greater than or equal to 0",
          Violations.durationText(usageHalfLifeTime));
    }
    if (usageSamplingInterval.isNegative() || usageSamplingInterval.isZero()) {
      v.add("admissionFairSharing.usageSamplingInterval", "must be greater than 0",
          Violations.durationText(usageSamplingInterval));
    }
    TreeMap<String, Double> weights = new TreeMap<>();
    for (Map.Entry<String, Double> e : resourceWeights.entrySet()) {
      String r = Objects.requireNonNull(e.getKey(), "resourceWeights key");
      double w = Objects.requireNonNull(e.getValue(), "resourceWeights[" + r + "]");
      if (!(w >= 0) || Double.isInfinite(w)) {
        v.add("admissionFairSharing.resourceWeights[" + r + "]", "must be greater than or equal to 0 and finite", w);
      }
      weights.put(r, w);
    }
    v.throwIfAny();
    resourceWeights = java.util.Collections.unmodifiableSortedMap(weights);
  }

  /** A configuration with {@code usageHalfLifeTime}, Kueue's default sampling interval and no resource weights. */
  public static AdmissionFairSharing of(Duration usageHalfLifeTime) {
    return new AdmissionFairSharing(usageHalfLifeTime, DEFAULT_USAGE_SAMPLING_INTERVAL, Map.of());
  }

  /** This configuration with {@code interval} as its sampling interval. */
  public AdmissionFairSharing withUsageSamplingInterval(Duration interval) {
    return new AdmissionFairSharing(usageHalfLifeTime, interval, resourceWeights);
  }

  /** This configuration with {@code weights} as its resource weights. */
  public AdmissionFairSharing withResourceWeights(Map<String, Double> weights) {
    return new AdmissionFairSharing(usageHalfLifeTime, usageSamplingInterval, weights);
  }

  /** The weight of {@code resource} in a LocalQueue's usage: its listed weight, else 1. */
  public double resourceWeight(String resource) {
    Double w = resourceWeights.get(resource);
    return w == null ? 1 : w;
  }
}
