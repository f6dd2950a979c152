package io.fleetkit.api.rollouts;

import java.util.List;
import java.util.Objects;

/**
 * Where a canary's traffic weights are applied: a Gateway API {@code HTTPRoute} in the rollout's namespace whose
 * rule lists the stable and canary Services as weighted backends. Without traffic routing the replica ratio is the
 * traffic split.
 *
 * @param httpRoute the route's name
 * @param managedRoutes the names of the routes the {@code setHeaderRoute} and {@code setMirrorRoute} steps may
 *     create (Argo Rollouts' {@code managedRoutes}, in the manifest's order); every one is removed when the update is
 *     aborted, fully promoted or complete
 */
public record TrafficRouting(String httpRoute, List<String> managedRoutes) {
  public TrafficRouting {
    Objects.requireNonNull(httpRoute, "httpRoute");
    managedRoutes = List.copyOf(managedRoutes);
  }

  /** Routing through {@code httpRoute} without managed routes. */
  public TrafficRouting(String httpRoute) {
    this(httpRoute, List.of());
  }
}
