package io.fleetkit.api.autoscaling;

import io.fleetkit.api.resource.Quantity;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One metric an HPA scales on, in the {@code autoscaling/v2} shape: a {@code type} and the one source field that
 * the type names. Use the factories; {@link HorizontalPodAutoscaler} rejects a spec whose matching source is
 * missing or that sets another one.
 */
public record MetricSpec(MetricSourceType type, @Nullable ResourceMetricSource resource,
    @Nullable ContainerResourceMetricSource containerResource, @Nullable PodsMetricSource pods,
    @Nullable ObjectMetricSource object, @Nullable ExternalMetricSource external) {
  public MetricSpec {
    Objects.requireNonNull(type, "type");
  }

  public static MetricSpec resource(String name, MetricTarget target) {
    return new MetricSpec(MetricSourceType.Resource, new ResourceMetricSource(name, target), null, null, null, null);
  }

  /** A Resource metric with a utilization target, e.g. {@code cpu} at 80%. */
  public static MetricSpec resourceUtilization(String name, int percent) {
    return resource(name, MetricTarget.utilization(percent));
  }

  public static MetricSpec containerResource(String name, String container, MetricTarget target) {
    return new MetricSpec(MetricSourceType.ContainerResource, null,
        new ContainerResourceMetricSource(name, container, target), null, null, null);
  }

  /** A Pods metric with a per-pod average target. */
  public static MetricSpec pods(MetricIdentifier metric, Quantity averageValue) {
    return new MetricSpec(MetricSourceType.Pods, null, null,
        new PodsMetricSource(metric, MetricTarget.averageValue(averageValue)), null, null);
  }

  public static MetricSpec object(CrossVersionObjectReference describedObject, MetricIdentifier metric,
      MetricTarget target) {
    return new MetricSpec(MetricSourceType.Object, null, null, null,
        new ObjectMetricSource(describedObject, metric, target), null);
  }

  public static MetricSpec external(MetricIdentifier metric, MetricTarget target) {
    return new MetricSpec(MetricSourceType.External, null, null, null, null,
        new ExternalMetricSource(metric, target));
  }

  /** The source that {@code type} names, or {@code null} when it is missing. */
  public @Nullable Object source() {
    return switch (type) {
      case Resource -> resource;
      case ContainerResource -> containerResource;
      case Pods -> pods;
      case Object -> object;
      case External -> external;
    };
  }
}
