package io.fleetkit.api.autoscaling;

import io.fleetkit.api.resource.ResourceList;
import java.util.Objects;

/**
 * A VPA's recommendation for one container.
 *
 * @param target the recommended requests
 * @param lowerBound below this the container is under-provisioned
 * @param upperBound above this the container is over-provisioned
 * @param uncappedTarget the target before {@code minAllowed}/{@code maxAllowed} were applied
 */
public record RecommendedContainerResources(String containerName, ResourceList target, ResourceList lowerBound,
    ResourceList upperBound, ResourceList uncappedTarget) {
  public RecommendedContainerResources {
    Objects.requireNonNull(containerName, "containerName");
    Objects.requireNonNull(target, "target");
    Objects.requireNonNull(lowerBound, "lowerBound");
    Objects.requireNonNull(upperBound, "upperBound");
    Objects.requireNonNull(uncappedTarget, "uncappedTarget");
  }
}
