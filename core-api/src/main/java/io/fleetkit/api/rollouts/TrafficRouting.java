package io.fleetkit.api.rollouts;

import java.util.Objects;

/**
 * Where a canary's traffic weights are applied: a Gateway API {@code HTTPRoute} in the rollout's namespace whose
 * rule lists the stable and canary Services as weighted backends. Without traffic routing the replica ratio is the
 * traffic split.
 *
 * @param httpRoute the route's name
 */
public record TrafficRouting(String httpRoute) {
  public TrafficRouting {
    Objects.requireNonNull(httpRoute, "httpRoute");
  }
}
