package io.fleetkit.api.autoscaling;

/** How a metric target is expressed, spelled as in {@code autoscaling/v2}. */
public enum MetricTargetType {
  /** A percentage of the pods' requests ({@code averageUtilization}); Resource and ContainerResource only. */
  Utilization,
  /** A total value ({@code value}). */
  Value,
  /** A value per pod ({@code averageValue}). */
  AverageValue
}
