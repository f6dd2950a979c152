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
 *     size {@code "max node group size reached: N"}; nothing fits)
 */
public record ScaleUpPlan(List<String> unschedulablePods, List<ScaleUpOption> options, @Nullable ScaleUpOption chosen,
    Map<String, String> skippedPools) {
  public ScaleUpPlan {
    unschedulablePods = List.copyOf(unschedulablePods);
    options = List.copyOf(options);
    skippedPools = Map.copyOf(Objects.requireNonNull(skippedPools, "skippedPools"));
  }
}
