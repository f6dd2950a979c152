package io.fleetkit.autoscale.hpa;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.labels.LabelSelector;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Where the HPA reads metrics: the three metrics APIs of Kubernetes ({@code metrics.k8s.io},
 * {@code custom.metrics.k8s.io}, {@code external.metrics.k8s.io}) behind one small SPI with JDK types only. All
 * values are milli-units, as the HPA computes on {@code Quantity.MilliValue()}.
 *
 * <p>Every method has a default that reports the API as unavailable, so an implementation provides only what it
 * serves. Implementations must be thread-safe when the controller runs on several workers.
 */
public interface MetricsSource {
  /**
   * Resource usage of the pods matching {@code selector} (the resource metrics API).
   *
   * @throws MetricsUnavailableException when no metrics can be read
   */
  default List<PodResourceMetrics> podResourceMetrics(String namespace, LabelSelector selector, String resource) {
    throw new MetricsUnavailableException("no resource metrics API configured");
  }

  /**
   * A version of what {@link #podResourceMetrics} returns for these arguments now: two equal non-null versions
   * promise the same pods with the same usage and windows (their timestamps may move forward, never back: the HPA's
   * cpu rules compare them with readiness changes). The HPA controller reuses its last
   * computation for an HPA whose pods, scale and metric versions are unchanged. The default, {@code null}, means
   * unknown: the metrics are read and the computation is done every time.
   */
  default @Nullable Object resourceMetricsVersion(String namespace, LabelSelector selector, String resource) {
    return null;
  }

  /**
   * A custom metric of each pod matching {@code selector} (the custom metrics API, Pods metrics).
   *
   * @throws MetricsUnavailableException when the metric cannot be read
   */
  default List<PodMetricValue> podMetrics(String namespace, LabelSelector selector, String metricName,
      @Nullable LabelSelector metricSelector) {
    throw new MetricsUnavailableException("no custom metrics API configured");
  }

  /**
   * A custom metric describing one object (the custom metrics API, Object metrics), in milli-units.
   *
   * @throws MetricsUnavailableException when the metric cannot be read
   */
  default long objectMetric(String namespace, CrossVersionObjectReference object, String metricName,
      @Nullable LabelSelector metricSelector) {
    throw new MetricsUnavailableException("no custom metrics API configured");
  }

  /**
   * The series of an external metric (the external metrics API), in milli-units; the HPA sums them.
   *
   * @throws MetricsUnavailableException when the metric cannot be read
   */
  default List<Long> externalMetric(String namespace, String metricName, @Nullable LabelSelector metricSelector) {
    throw new MetricsUnavailableException("no external metrics API configured");
  }
}
