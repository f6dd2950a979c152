package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Pod;
import java.util.List;
import java.util.Objects;

/**
 * One way to scale up (upstream {@code expander.Option}): add {@code nodeCount} nodes to {@code pool}, which lets
 * {@code pods} schedule, as the binpacking estimator found.
 *
 * @param nodeCount at least 1
 * @param pods the pending pods the new nodes would take, in the order the estimator placed them
 * @param similarPools the pools the scale-up would be balanced with (upstream's {@code SimilarNodeGroups}; empty
 *     unless {@code balanceSimilarNodeGroups} is on), in name order, without {@code pool}
 */
public record ScaleUpOption(NodePool pool, int nodeCount, List<Pod> pods, List<NodePool> similarPools) {
  public ScaleUpOption {
    Objects.requireNonNull(pool, "pool");
    pods = List.copyOf(pods);
    similarPools = List.copyOf(similarPools);
    if (nodeCount < 1) {
      throw new IllegalArgumentException("scale-up option for pool " + pool.metadata().name() + ": nodeCount "
          + nodeCount + " must be at least 1");
    }
  }

  /** An option without similar pools. */
  public ScaleUpOption(NodePool pool, int nodeCount, List<Pod> pods) {
    this(pool, nodeCount, pods, List.of());
  }

  /** The pool's name. */
  public String poolName() {
    return pool.metadata().name();
  }

  /** What the new nodes cost per hour together. */
  public double pricePerHour() {
    return nodeCount * pool.spec().pricePerHour();
  }
}
