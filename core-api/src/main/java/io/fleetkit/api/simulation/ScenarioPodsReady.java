package io.fleetkit.api.simulation;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's {@code waitForPodsReady} for a scenario's queues (all-or-nothing admission with timeouts), in the shape of
 * Kueue's Configuration:
 *
 * <pre>
 * waitForPodsReady:
 *   timeout: 10m               # default 30m (Kueue v1beta2)
 *   blockAdmission: false      # default false
 *   recoveryTimeout: 3m        # optional: how long admitted pods may stay not ready after having been ready
 *   requeuingStrategy:
 *     timestamp: Eviction      # Eviction (default) or Creation
 *     backoffLimitCount: 5     # optional: requeues before the workload is deactivated
 *     backoffBaseSeconds: 60   # default 60
 *     backoffMaxSeconds: 3600  # default 3600
 * </pre>
 *
 * <p>An admitted Job whose pods are not all ready within {@code timeout} is suspended (its workload evicted with
 * reason {@code PodsReadyTimeout}) and queued again after an exponential backoff; the requeue jitter is drawn from the
 * scenario's seed. The queueing module's {@code WaitForPodsReady} checks the values again when the simulation starts.
 *
 * @param timeout how long an admitted Job may take for all its pods to be ready (more than 0)
 * @param blockAdmission whether nothing is admitted while an admitted Job is not yet ready
 * @param recoveryTimeout how long a Job whose pods were all ready may stay not ready; {@code null}: the timeout
 * @param creationTimestamp whether an evicted Job keeps its place by creation time ({@code Creation}) instead of
 *     going behind by its eviction time ({@code Eviction}, Kueue's default)
 * @param backoffLimitCount requeues before the Job is deactivated; {@code null}: no limit
 * @param backoffBaseSeconds the first requeue's delay in seconds (at least 0)
 * @param backoffMaxSeconds the longest requeue delay in seconds (at least 0)
 */
public record ScenarioPodsReady(Duration timeout, boolean blockAdmission, @Nullable Duration recoveryTimeout,
    boolean creationTimestamp, @Nullable Integer backoffLimitCount, int backoffBaseSeconds, int backoffMaxSeconds) {
  /** Kueue's default {@code timeout} (v1beta2). */
  public static final Duration DEFAULT_TIMEOUT = Duration.ofMinutes(30);
  /** Kueue's default {@code requeuingStrategy.backoffBaseSeconds}. */
  public static final int DEFAULT_BACKOFF_BASE_SECONDS = 60;
  /** Kueue's default {@code requeuingStrategy.backoffMaxSeconds}. */
  public static final int DEFAULT_BACKOFF_MAX_SECONDS = 3600;

  public ScenarioPodsReady {
    Objects.requireNonNull(timeout, "timeout");
  }

  /** Kueue's defaults with another {@code timeout}. */
  public static ScenarioPodsReady withTimeout(Duration timeout) {
    return new ScenarioPodsReady(timeout, false, null, false, null, DEFAULT_BACKOFF_BASE_SECONDS,
        DEFAULT_BACKOFF_MAX_SECONDS);
  }
}
