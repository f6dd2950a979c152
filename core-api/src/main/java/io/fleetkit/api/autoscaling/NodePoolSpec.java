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
 */
public record NodePoolSpec(NodeTemplate template, int minSize, int maxSize, Duration startupDelay,
    double pricePerHour, boolean zeroOrMaxNodeScaling) {
  public NodePoolSpec {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(startupDelay, "startupDelay");
  }

  /** A pool that scales node by node ({@code zeroOrMaxNodeScaling} false). */
  public NodePoolSpec(NodeTemplate template, int minSize, int maxSize, Duration startupDelay, double pricePerHour) {
    this(template, minSize, maxSize, startupDelay, pricePerHour, false);
  }

  /** This spec with {@code zeroOrMaxNodeScaling} set to {@code v}. */
  public NodePoolSpec withZeroOrMaxNodeScaling(boolean v) {
    return new NodePoolSpec(template, minSize, maxSize, startupDelay, pricePerHour, v);
  }
}
