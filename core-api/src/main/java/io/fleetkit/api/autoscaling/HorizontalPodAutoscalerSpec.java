package io.fleetkit.api.autoscaling;

import io.fleetkit.api.resource.ResourceNames;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired state of an HPA ({@code autoscaling/v2}). Rules are checked by {@link HorizontalPodAutoscaler}.
 *
 * @param scaleTargetRef the object whose scale is set, e.g. a Deployment
 * @param minReplicas at least 1; defaults to 1
 * @param maxReplicas at least 1 and at least {@code minReplicas}
 * @param metrics the metrics to scale on; the builder defaults them to cpu at
 *     {@value #DEFAULT_CPU_UTILIZATION}% utilization, as Kubernetes does
 * @param behavior scaling velocity, {@code null} for the controller's legacy rules
 */
public record HorizontalPodAutoscalerSpec(CrossVersionObjectReference scaleTargetRef, int minReplicas,
    int maxReplicas, List<MetricSpec> metrics, @Nullable HorizontalPodAutoscalerBehavior behavior) {
  /** The cpu utilization target of an HPA without metrics. */
  public static final int DEFAULT_CPU_UTILIZATION = 80;

  public HorizontalPodAutoscalerSpec {
    Objects.requireNonNull(scaleTargetRef, "scaleTargetRef");
    metrics = List.copyOf(metrics);
  }

  public static Builder builder() {
    return new Builder();
  }

  public Builder toBuilder() {
    Builder b = new Builder().scaleTargetRef(scaleTargetRef);
    return b.minReplicas(minReplicas).maxReplicas(maxReplicas).metrics(metrics).behavior(behavior);
  }

  /**
   * Mutable builder with Kubernetes' defaults: {@code minReplicas} 1, and one cpu utilization metric at
   * {@value #DEFAULT_CPU_UTILIZATION}% when no metric is given. Not thread-safe.
   */
  public static final class Builder {
    private CrossVersionObjectReference scaleTargetRef = new CrossVersionObjectReference("", "", "");
    private int minReplicas = 1;
    private int maxReplicas;
    private final List<MetricSpec> metrics = new ArrayList<>();
    private @Nullable HorizontalPodAutoscalerBehavior behavior;

    private Builder() {}

    public Builder scaleTargetRef(CrossVersionObjectReference v) { scaleTargetRef = v; return this; }
    public Builder minReplicas(int v) { minReplicas = v; return this; }
    public Builder maxReplicas(int v) { maxReplicas = v; return this; }
    public Builder metrics(List<MetricSpec> v) { metrics.clear(); metrics.addAll(v); return this; }
    public Builder metric(MetricSpec v) { metrics.add(v); return this; }
    public Builder behavior(@Nullable HorizontalPodAutoscalerBehavior v) { behavior = v; return this; }

    public HorizontalPodAutoscalerSpec build() {
      List<MetricSpec> m = metrics.isEmpty()
          ? List.of(MetricSpec.resourceUtilization(ResourceNames.CPU, DEFAULT_CPU_UTILIZATION))
          : metrics;
      return new HorizontalPodAutoscalerSpec(scaleTargetRef, minReplicas, maxReplicas, m, behavior);
    }
  }
}
