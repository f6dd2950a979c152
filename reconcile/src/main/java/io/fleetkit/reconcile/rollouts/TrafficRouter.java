package io.fleetkit.reconcile.rollouts;

import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.TrafficRouting;

/**
 * Applies a canary's traffic weight to a router (Argo Rollouts' {@code TrafficRoutingReconciler}): for a Gateway
 * API {@code HTTPRoute}, the weights of its stable and canary backends. The rollout controller calls it on every
 * sync of a canary that declares {@code trafficRouting}, with the weight the current step asks for. Without a
 * router the replica ratio is the traffic split and the controller records the ratio of ready pods as the weight.
 */
@FunctionalInterface
public interface TrafficRouter {
  /**
   * Sends {@code canaryWeight} percent of the traffic to the canary Service and the rest to the stable one.
   *
   * @return the weight now in effect (the router may not be able to apply it yet)
   */
  int setWeight(Rollout rollout, TrafficRouting routing, int canaryWeight);
}
