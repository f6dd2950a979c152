package io.fleetkit.api.autoscaling;

import java.util.List;
import java.util.Optional;

/** A VPA's recommendation for the containers of its pods. */
public record RecommendedPodResources(List<RecommendedContainerResources> containerRecommendations) {
  public RecommendedPodResources {
    containerRecommendations = List.copyOf(containerRecommendations);
  }

  /** The recommendation for {@code containerName}, if any. */
  public Optional<RecommendedContainerResources> forContainer(String containerName) {
    return containerRecommendations.stream().filter(r -> r.containerName().equals(containerName)).findFirst();
  }
}
