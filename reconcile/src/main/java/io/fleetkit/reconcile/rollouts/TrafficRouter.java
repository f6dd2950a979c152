package io.fleetkit.reconcile.rollouts;

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
}
