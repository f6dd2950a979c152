package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Kueue's Configuration {@code admissionFairSharing} for a scenario's queues (admission fair sharing, KEP-4136): in
 * a ClusterQueue whose {@code admissionScope.admissionMode} is {@code UsageBasedAdmissionFairSharing}, pending
 * workloads are ordered by their LocalQueue's decayed past usage, lower first. In the shape of Kueue's Configuration:
 *
 * <pre>
 * admissionFairSharing:
 *   usageHalfLifeTime: 168h       # required; 0 forgets usage at every sample
 *   usageSamplingInterval: 5m     # default 5m
 *   resourceWeights: {cpu: 1, nvidia.com/gpu: 10}   # default 1 per resource
 * </pre>
 *
 * <p>The values are checked by the queueing module's {@code AdmissionFairSharing} (Kueue's {@code
 * validateAdmissionFairSharing}) when the scenario is read and again when the simulation starts.
 *
 * @param usageHalfLifeTime how long past usage takes to halve
 * @param usageSamplingInterval how often usage is sampled
 * @param resourceWeights each resource's weight in a LocalQueue's usage
 */
public record ScenarioAdmissionFairSharing(Duration usageHalfLifeTime, Duration usageSamplingInterval,
    Map<String, Double> resourceWeights) {
  /** Kueue's default {@code usageSamplingInterval}. */
  public static final Duration DEFAULT_USAGE_SAMPLING_INTERVAL = Duration.ofMinutes(5);

  public ScenarioAdmissionFairSharing {
    Objects.requireNonNull(usageHalfLifeTime, "usageHalfLifeTime");
    Objects.requireNonNull(usageSamplingInterval, "usageSamplingInterval");
    resourceWeights = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(resourceWeights,
        "resourceWeights")));
  }
}
