package io.fleetkit.api.autoscaling;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** The current value of one metric of an HPA: a {@code type} and the one status field it names. */
public record MetricStatus(MetricSourceType type, @Nullable ResourceMetricStatus resource,
    @Nullable ContainerResourceMetricStatus containerResource, @Nullable PodsMetricStatus pods,
    @Nullable ObjectMetricStatus object, @Nullable ExternalMetricStatus external) {
  public MetricStatus {
    Objects.requireNonNull(type, "type");
  }

  public static MetricStatus of(ResourceMetricStatus s) {
    return new MetricStatus(MetricSourceType.Resource, s, null, null, null, null);
  }

  public static MetricStatus of(ContainerResourceMetricStatus s) {
    return new MetricStatus(MetricSourceType.ContainerResource, null, s, null, null, null);
  }

  public static MetricStatus of(PodsMetricStatus s) {
    return new MetricStatus(MetricSourceType.Pods, null, null, s, null, null);
  }

  public static MetricStatus of(ObjectMetricStatus s) {
    return new MetricStatus(MetricSourceType.Object, null, null, null, s, null);
  }

  public static MetricStatus of(ExternalMetricStatus s) {
    return new MetricStatus(MetricSourceType.External, null, null, null, null, s);
  }
}
