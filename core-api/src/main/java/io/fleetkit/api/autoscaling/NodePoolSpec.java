package io.fleetkit.api.autoscaling;

import java.time.Duration;
import java.util.Objects;

/**
 * The desired part of a node pool.
 *
 * @param startupDelay how long a new node takes to become ready
 * @param pricePerHour the cost of one node per hour, in the user's currency
 */
public record NodePoolSpec(NodeTemplate template, int minSize, int maxSize, Duration startupDelay,
    double pricePerHour) {
  public NodePoolSpec {
    Objects.requireNonNull(template, "template");
    Objects.requireNonNull(startupDelay, "startupDelay");
  }
}
