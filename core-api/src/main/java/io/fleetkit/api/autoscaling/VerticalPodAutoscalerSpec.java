package io.fleetkit.api.autoscaling;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of a VPA ({@code autoscaling.k8s.io/v1}). Rules are checked by {@link VerticalPodAutoscaler}.
 *
 * @param targetRef the controller whose pods are sized, e.g. a Deployment
 * @param updatePolicy how recommendations are applied; {@code null} for the default (Auto, i.e. Recreate)
 * @param resourcePolicy per-container bounds; {@code null} for none
 * @param recommenders at most one; empty for the default recommender
 */
public record VerticalPodAutoscalerSpec(CrossVersionObjectReference targetRef, @Nullable PodUpdatePolicy updatePolicy,
    @Nullable PodResourcePolicy resourcePolicy, List<VerticalPodAutoscalerRecommenderSelector> recommenders) {
  public VerticalPodAutoscalerSpec {
    Objects.requireNonNull(targetRef, "targetRef");
    recommenders = List.copyOf(recommenders);
  }

  /** The update mode in force: the policy's, or Auto when there is no policy. */
  public UpdateMode updateMode() {
    PodUpdatePolicy p = updatePolicy;
    return p != null ? p.updateMode() : UpdateMode.Auto;
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    return new Builder().targetRef(targetRef).updatePolicy(updatePolicy).resourcePolicy(resourcePolicy)
        .recommenders(recommenders);
  }

  /** Mutable builder. Not thread-safe. */
  public static final class Builder {
    private CrossVersionObjectReference targetRef = new CrossVersionObjectReference("", "", "");
    private @Nullable PodUpdatePolicy updatePolicy;
    private @Nullable PodResourcePolicy resourcePolicy;
    private final List<VerticalPodAutoscalerRecommenderSelector> recommenders = new ArrayList<>();

    private Builder() {}

    public Builder targetRef(CrossVersionObjectReference v) { targetRef = v; return this; }
    public Builder updatePolicy(@Nullable PodUpdatePolicy v) { updatePolicy = v; return this; }
    public Builder updateMode(UpdateMode v) { updatePolicy = PodUpdatePolicy.of(v); return this; }
    public Builder resourcePolicy(@Nullable PodResourcePolicy v) { resourcePolicy = v; return this; }
    public Builder recommenders(List<VerticalPodAutoscalerRecommenderSelector> v) {
      recommenders.clear();
      recommenders.addAll(v);
      return this;
    }
    public Builder recommender(String name) {
      recommenders.add(new VerticalPodAutoscalerRecommenderSelector(name));
      return this;
    }

    public VerticalPodAutoscalerSpec build() {
      return new VerticalPodAutoscalerSpec(targetRef, updatePolicy, resourcePolicy, recommenders);
    }
  }
}
