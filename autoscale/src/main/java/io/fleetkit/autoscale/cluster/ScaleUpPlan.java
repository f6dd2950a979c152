package io.fleetkit.autoscale.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A scale-up decision, before anything is launched.
 *
 * @param unschedulablePods keys of the pending pods that fit on no existing or upcoming node
 * @param options one per pool that could help, in pool-name order
 * @param chosen the option the expander (and the seeded random tie-break) picked; {@code null} when none
 * @param skippedPools pools that were not considered, with why (upstream's reasons with details: unhealthy
 *     {@code "not ready for scale-up: ..."}, backed off {@code "in backoff after failed scale-up: until ..."}, at max
 *     size {@code "max node group size reached: N"}; a node would exceed a cluster-wide maximum
 *     {@code "max cluster cpu, memory limit reached"}; nothing fits)
 * @param scaleUps what the loop launches for {@code chosen} (upstream's {@code ScaleUpInfos}): its node count capped by
 *     the cluster-wide resource limits, in the chosen pool, or split over it and its similar pools when
 *     {@code balanceSimilarNodeGroups} is on; empty when nothing is chosen
 */
public record ScaleUpPlan(List<String> unschedulablePods, List<ScaleUpOption> options, @Nullable ScaleUpOption chosen,
    Map<String, String> skippedPools, List<PoolScaleUp> scaleUps) {
  public ScaleUpPlan {
    unschedulablePods = List.copyOf(unschedulablePods);
    options = List.copyOf(options);
    scaleUps = List.copyOf(scaleUps);
    skippedPools = Map.copyOf(Objects.requireNonNull(skippedPools, "skippedPools"));
  }

  /** A plan that launches nothing. */
  static ScaleUpPlan none(List<String> unschedulablePods, List<ScaleUpOption> options,
      Map<String, String> skippedPools) {
    return new ScaleUpPlan(unschedulablePods, options, null, skippedPools, List.of());
  }

  /** The nodes {@link #scaleUps()} add together. */
  public int newNodes() {
    int n = 0;
    for (PoolScaleUp s : scaleUps) {
      n += s.delta();
    }
    return n;
  }
}
