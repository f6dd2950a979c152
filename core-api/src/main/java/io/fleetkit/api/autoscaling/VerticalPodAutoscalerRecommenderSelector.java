package io.fleetkit.api.autoscaling;

import java.util.Objects;

/** Names the recommender that serves a VPA; none means the default recommender. */
public record VerticalPodAutoscalerRecommenderSelector(String name) {
  public VerticalPodAutoscalerRecommenderSelector {
    Objects.requireNonNull(name, "name");
  }
}
