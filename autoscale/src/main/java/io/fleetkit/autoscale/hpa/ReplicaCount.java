package io.fleetkit.autoscale.hpa;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A replica proposal from one metric, with the observed value the HPA reports in its status.
 *
 * @param replicas the proposed replica count
 * @param usage the observed value in milli-units: the average per pod for Resource and Pods metrics (the raw
 *     average for a utilization target), the object's or the summed external value for Value targets, the value
 *     per current replica (rounded up) for AverageValue targets of Object and External metrics
 * @param utilization the observed utilization in whole percent of requests, only for utilization targets
 * @param timestamp when the metric was sampled; {@code null} when the source gives none
 */
public record ReplicaCount(int replicas, long usage, @Nullable Integer utilization, @Nullable Instant timestamp) {}
