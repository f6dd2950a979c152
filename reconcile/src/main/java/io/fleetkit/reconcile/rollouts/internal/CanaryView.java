package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.CanaryStep;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the canary arithmetic needs of a Rollout's spec and status, flattened so that Argo Rollouts' table tests
 * port one to one ({@link CanaryMath}).
 *
 * @param replicas spec.replicas
 * @param currentStepIndex status.currentStepIndex; {@code null} reads as 0
 * @param maxSurge {@code null} means the default 25%
 * @param maxUnavailable {@code null} means the default 25%
 * @param trafficRouting whether the canary has traffic routing (weights set on a router, not by replica ratio)
 * @param abortScaleDownDelaySeconds spec value; {@code null} when not set
 * @param stableHash status.stableRS (a pod template hash); empty when none
 * @param currentHash status.currentPodHash
 */
public record CanaryView(int replicas, List<CanaryStep> steps, @Nullable Integer currentStepIndex,
    @Nullable IntOrPercent maxSurge, @Nullable IntOrPercent maxUnavailable, boolean trafficRouting,
    boolean dynamicStableScale, @Nullable Integer abortScaleDownDelaySeconds, @Nullable Integer minPodsPerReplicaSet,
    boolean abort, boolean promoteFull, String stableHash, String currentHash) {
  public CanaryView {
    steps = List.copyOf(steps);
    Objects.requireNonNull(stableHash, "stableHash");
    Objects.requireNonNull(currentHash, "currentHash");
  }
}
