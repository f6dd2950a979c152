package io.fleetkit.reconcile.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The TTL-after-finished controller's metric, named, helped and bucketed as {@code kubernetes/kubernetes
 * pkg/controller/ttlafterfinished/metrics/metrics.go} registers it (subsystem {@code ttl_after_finished_controller},
 * no labels). {@link #JOB_DELETION_DURATION} observes, for every Job the controller deletes, the time from the
 * instant its TTL expired to the deletion, on the controller's clock.
 */
public final class TtlAfterFinishedMetrics {
  /** Upstream's {@code ExponentialBuckets(0.1, 2, 14)}: 100 ms to about 819 s, the last bucket [~27 min, +Inf). */
  public static final List<Double> JOB_DELETION_DURATION_BUCKETS = MetricDescriptor.exponentialBuckets(0.1, 2, 14);

  public static final MetricDescriptor JOB_DELETION_DURATION = MetricDescriptor.histogram(
      "ttl_after_finished_controller_job_deletion_duration_seconds",
      "The time it took to delete the job since it became eligible for deletion", JOB_DELETION_DURATION_BUCKETS);

  /** The controller's one metric. */
  public static final List<MetricDescriptor> ALL = List.of(JOB_DELETION_DURATION);

  private TtlAfterFinishedMetrics() {}
}
