package io.fleetkit.api.autoscaling;

import java.time.Duration;
import java.util.Objects;

/**
 * The desired part of a node pool.
 *
 * @param startupDelay how long a new node takes to become ready
 * @param pricePerHour the cost of one node per hour, in the user's currency
 * @param zeroOrMaxNodeScaling whether the pool scales atomically (the cluster autoscaler's node group option
 *     {@code ZeroOrMaxNodeScaling}): its nodes are removed all together or not at all
 * @param autoscalingOptions the pool's own cluster-autoscaler settings ({@link NodePoolAutoscalingOptions#NONE}: the
 *     autoscaler's for every one)
 */
public record NodePoolSpec(NodeTemplate template, int minSize, int maxSize, Duration startupDelay,
    double pricePerHour, boolean zeroOrMaxNodeScaling, NodePoolAutoscalingOptions autoscalingOptions) {
  public NodePoolSpec {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(startupDelay, "startupDelay");
    Objects.requireNonNull(autoscalingOptions, "autoscalingOptions");
  }

  /** A pool without autoscaling settings of its own. */
  public NodePoolSpec(NodeTemplate template, int minSize, int maxSize, Duration startupDelay, double pricePerHour,
      boolean zeroOrMaxNodeScaling) {
    this(template, minSize, maxSize, startupDelay, pricePerHour, zeroOrMaxNodeScaling, NodePoolAutoscalingOptions.NONE);
  }

  /** A pool that scales node by node ({@code zeroOrMaxNodeScaling} false). */
  public NodePoolSpec(NodeTemplate template, int minSize, int maxSize, Duration startupDelay, double pricePerHour) {
    this(template, minSize, maxSize, startupDelay, pricePerHour, false);
  }

  /** This spec with {@code zeroOrMaxNodeScaling} set to {@code v}. */
  public NodePoolSpec withZeroOrMaxNodeScaling(boolean v) {
    return new NodePoolSpec(template, minSize, maxSize, startupDelay, pricePerHour, v, autoscalingOptions);
  }

  /** This spec with the pool's own autoscaling settings {@code v}. */
  public NodePoolSpec withAutoscalingOptions(NodePoolAutoscalingOptions v) {
    return new NodePoolSpec(template, minSize, maxSize, startupDelay, pricePerHour, zeroOrMaxNodeScaling, v);
  }
}
