package io.fleetkit.networking.lb;

import java.util.List;
import java.util.Map;

/**
 * Chooses one endpoint among usable ones. Implementations are thread-safe; {@link #pick} is called with a non-empty
 * candidate list that the caller already reduced to usable endpoints ({@link EndpointCategorizer}), so a policy
 * never sees, and never returns, an endpoint that is not usable.
 */
public interface BalancingPolicy {
  /**
   * One of {@code candidates}.
   *
   * @throws IllegalArgumentException if {@code candidates} is empty
   */
  ProxyEndpoint pick(List<ProxyEndpoint> candidates);

  /** Tells the policy a request to {@code endpoint} finished (least-request counts in-flight requests). */
  default void finished(ProxyEndpoint endpoint) {}

  /** Each candidate in turn. */
  static BalancingPolicy roundRobin() {
    return new Policies.RoundRobin();
  }

  /** Uniformly at random, from a seeded generator (reproducible runs). */
  static BalancingPolicy random(long seed) {
    return new Policies.Uniform(seed);
  }

  /** The less loaded of two random candidates (power of two choices), counting in-flight requests. */
  static BalancingPolicy leastRequest(long seed) {
    return new Policies.LeastRequest(seed);
  }

  /**
   * Smooth weighted round robin: each candidate's share is its weight over the sum of the candidates' weights;
   * weight 0 is never picked (unless every candidate has weight 0: then round robin); candidates without a weight
   * get {@code defaultWeight}.
   *
   * @param weights by endpoint address
   * @throws IllegalArgumentException for a negative weight
   */
  static BalancingPolicy weighted(Map<String, Integer> weights, int defaultWeight) {
    return new Policies.Weighted(weights, defaultWeight);
  }
}
