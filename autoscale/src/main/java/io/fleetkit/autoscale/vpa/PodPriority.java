package io.fleetkit.autoscale.vpa;

/**
 * How urgently a pod should get new resources ({@code updater/priority/priority_processor.go}).
 *
 * @param outsideRecommendedRange some container's request is below the lower or above the upper bound, or missing
 * @param scaleUp some container's target is above its request
 * @param resourceDiff per resource, {@code |sum(requests) - sum(targets)| / max(sum(requests), 1)} in milli-units,
 *     summed over resources
 */
public record PodPriority(boolean outsideRecommendedRange, boolean scaleUp, double resourceDiff)
    implements Comparable<PodPriority> {
  /** Upstream's order: a pod that wants to grow first, then the larger resource diff. */
  @Override
  public int compareTo(PodPriority other) {
    if (scaleUp != other.scaleUp) {
      return scaleUp ? 1 : -1;
    }
    return Double.compare(resourceDiff, other.resourceDiff);
  }
}
