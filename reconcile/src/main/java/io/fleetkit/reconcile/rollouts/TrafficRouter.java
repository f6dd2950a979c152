package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.TrafficRouting;

/**
 * Applies a canary's traffic weight to a router (Argo Rollouts' {@code TrafficRoutingReconciler}): for a Gateway
 * API {@code HTTPRoute}, the weights of its stable and canary backends ({@link HttpRouteTrafficRouter}, the
 * default). The rollout controller calls it at the start of every sync of a canary that declares
 * {@code trafficRouting}, with the weight the status asks for (Argo's rules: the weight of the current step once its
 * replica counts are reached, 0 on an abort and once promoted), records the weight it reports, and only then
 * scales and moves through the steps. Implementations must be idempotent: they are called again with the same
 * weight on every sync.
 *
 * <p>Managed routes (Argo's {@code SetHeaderRoute}, {@code SetMirrorRoute}, {@code RemoveManagedRoutes}): while the
 * current step is a {@code setHeaderRoute} or {@code setMirrorRoute} the controller applies it, before the weight;
 * on an abort, a full promotion, once the rollout is fully promoted, and while the new version has no available pod
 * it removes every managed route. A router without managed routes keeps the defaults: the two steps fail (so the
 * rollout reports a {@code TrafficRoutingError} instead of going on without them) and the removal has nothing to
 * do.
 */
@FunctionalInterface
public interface TrafficRouter {
  /**
   * Sends {@code canaryWeight} percent of the traffic to the canary Service and the rest to the stable one.
   *
   * @return the weight now in effect (the router may not be able to apply it yet)
   * @throws RuntimeException (e.g. {@link IllegalStateException}) when the weight cannot be applied; the controller
   *     records the message as the rollout's {@code TrafficRoutingError}, neither scales nor advances, and retries
   */
  int setWeight(Rollout rollout, TrafficRouting routing, int canaryWeight);

  /**
   * Creates or replaces the managed header route {@code step.name()}: requests with the step's headers go to the
   * canary only; with no match the route is removed. Called again on every sync of the step: must be idempotent.
   *
   * @throws RuntimeException when it cannot be applied (recorded as the {@code TrafficRoutingError}; retried);
   *     by default {@link UnsupportedOperationException}
   */
  default void setHeaderRoute(Rollout rollout, TrafficRouting routing, CanaryStep.SetHeaderRoute step) {
    throw new UnsupportedOperationException("traffic router " + getClass().getSimpleName()
        + " does not support setHeaderRoute");
  }

  /**
   * Creates or replaces the managed mirror route {@code step.name()}: a share of the matching requests is copied to
   * the canary. Must be idempotent.
   *
   * @throws RuntimeException when it cannot be applied; by default {@link UnsupportedOperationException}
   */
  default void setMirrorRoute(Rollout rollout, TrafficRouting routing, CanaryStep.SetMirrorRoute step) {
    throw new UnsupportedOperationException("traffic router " + getClass().getSimpleName()
        + " does not support setMirrorRoute");
  }

  /**
   * Removes every route named in {@code routing.managedRoutes()}; nothing to do when there is none. Must be
   * idempotent. The default does nothing (a router without managed routes never created one).
   *
   * @throws RuntimeException when they cannot be removed (recorded as the {@code TrafficRoutingError}; retried)
   */
  default void removeManagedRoutes(Rollout rollout, TrafficRouting routing) {}
}
