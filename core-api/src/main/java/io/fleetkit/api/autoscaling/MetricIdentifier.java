package io.fleetkit.api.autoscaling;

import io.fleetkit.api.labels.LabelSelector;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Names a custom or external metric.
 *
 * @param selector narrows the metric's series by label, {@code null} for all
 */
public record MetricIdentifier(String name, @Nullable LabelSelector selector) {
  public MetricIdentifier {
    Objects.requireNonNull(name, "name");
  }

  public static MetricIdentifier of(String name) {
    return new MetricIdentifier(name, null);
  }
}
