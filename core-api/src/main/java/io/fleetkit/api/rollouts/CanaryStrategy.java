package io.fleetkit.api.rollouts;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A canary rollout (Argo Rollouts' {@code CanaryStrategy}): the new version gets a growing share of replicas (and
 * traffic) through {@code steps}; the stable version keeps the rest.
 *
 * @param maxSurge default 25%
 * @param maxUnavailable default 25%
 * @param analysis background analysis run alongside the steps; {@code null} for none
 * @param stableService Service that selects only stable pods; {@code null} for none
 * @param canaryService Service that selects only canary pods; {@code null} for none
 * @param trafficRouting {@code null}: the replica ratio is the traffic split
 * @param abortScaleDownDelaySeconds how long a canary stays up after an abort (traffic routing only; default 30;
 *     0 keeps it up)
 * @param minPodsPerReplicaSet with traffic routing: the least non-zero count of either side
 * @param scaleDownDelaySeconds with traffic routing: how long the previous stable version stays up after the
 *     update (default 30)
 * @param scaleDownDelayRevisionLimit with traffic routing: how many old versions may stay up during their delay
 *     ({@code null}: no limit)
 * @param canaryMetadata labels and annotations put on the canary's pods; {@code null} for none
 * @param stableMetadata labels and annotations put on the stable version's pods; {@code null} for none
 */
public record CanaryStrategy(List<CanaryStep> steps, IntOrPercent maxSurge, IntOrPercent maxUnavailable,
    @Nullable RolloutAnalysis analysis, @Nullable String stableService, @Nullable String canaryService,
    @Nullable TrafficRouting trafficRouting, boolean dynamicStableScale, @Nullable Integer abortScaleDownDelaySeconds,
    @Nullable Integer minPodsPerReplicaSet, @Nullable Integer scaleDownDelaySeconds,
    @Nullable Integer scaleDownDelayRevisionLimit, @Nullable PodTemplateMetadata canaryMetadata,
    @Nullable PodTemplateMetadata stableMetadata) {
  public CanaryStrategy {
    steps = List.copyOf(steps);
    java.util.Objects.requireNonNull(maxSurge, "maxSurge");
    java.util.Objects.requireNonNull(maxUnavailable, "maxUnavailable");
  }

  /** Without scale-down delay settings or ephemeral metadata. */
  public CanaryStrategy(List<CanaryStep> steps, IntOrPercent maxSurge, IntOrPercent maxUnavailable,
      @Nullable RolloutAnalysis analysis, @Nullable String stableService, @Nullable String canaryService,
      @Nullable TrafficRouting trafficRouting, boolean dynamicStableScale,
      @Nullable Integer abortScaleDownDelaySeconds, @Nullable Integer minPodsPerReplicaSet) {
    this(steps, maxSurge, maxUnavailable, analysis, stableService, canaryService, trafficRouting, dynamicStableScale,
        abortScaleDownDelaySeconds, minPodsPerReplicaSet, null, null, null, null);
  }

  /** A canary with these steps and the defaults (25%/25%, no analysis, no services, no traffic routing). */
  public static CanaryStrategy of(CanaryStep... steps) {
    return new CanaryStrategy(List.of(steps), IntOrPercent.TWENTY_FIVE_PERCENT, IntOrPercent.TWENTY_FIVE_PERCENT,
        null, null, null, null, false, null, null);
  }

  public CanaryStrategy withSurge(IntOrPercent surge, IntOrPercent unavailable) {
    return new CanaryStrategy(steps, surge, unavailable, analysis, stableService, canaryService, trafficRouting,
        dynamicStableScale, abortScaleDownDelaySeconds, minPodsPerReplicaSet, scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, canaryMetadata, stableMetadata);
  }

  public CanaryStrategy withAnalysis(@Nullable RolloutAnalysis a) {
    return new CanaryStrategy(steps, maxSurge, maxUnavailable, a, stableService, canaryService, trafficRouting,
        dynamicStableScale, abortScaleDownDelaySeconds, minPodsPerReplicaSet, scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, canaryMetadata, stableMetadata);
  }

  public CanaryStrategy withTrafficRouting(@Nullable TrafficRouting t) {
    return new CanaryStrategy(steps, maxSurge, maxUnavailable, analysis, stableService, canaryService, t,
        dynamicStableScale, abortScaleDownDelaySeconds, minPodsPerReplicaSet, scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, canaryMetadata, stableMetadata);
  }

  /** {@code abortScaleDownDelaySeconds}: {@code null} for the default, 0 to keep the canary up after an abort. */
  public CanaryStrategy withAbortScaleDownDelaySeconds(@Nullable Integer v) {
    return new CanaryStrategy(steps, maxSurge, maxUnavailable, analysis, stableService, canaryService,
        trafficRouting, dynamicStableScale, v, minPodsPerReplicaSet, scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, canaryMetadata, stableMetadata);
  }

  /** {@code scaleDownDelaySeconds} and {@code scaleDownDelayRevisionLimit} ({@code null}: the defaults). */
  public CanaryStrategy withScaleDownDelay(@Nullable Integer seconds, @Nullable Integer revisionLimit) {
    return new CanaryStrategy(steps, maxSurge, maxUnavailable, analysis, stableService, canaryService,
        trafficRouting, dynamicStableScale, abortScaleDownDelaySeconds, minPodsPerReplicaSet, seconds,
        revisionLimit, canaryMetadata, stableMetadata);
  }

  /** {@code canaryMetadata} and {@code stableMetadata} ({@code null} for none). */
  public CanaryStrategy withEphemeralMetadata(@Nullable PodTemplateMetadata canary,
      @Nullable PodTemplateMetadata stable) {
    return new CanaryStrategy(steps, maxSurge, maxUnavailable, analysis, stableService, canaryService,
        trafficRouting, dynamicStableScale, abortScaleDownDelaySeconds, minPodsPerReplicaSet, scaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, canary, stable);
  }
}
