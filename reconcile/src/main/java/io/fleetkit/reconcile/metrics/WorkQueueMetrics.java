package io.fleetkit.reconcile.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.time.Duration;
import java.util.List;

/**
 * client-go's work-queue metrics, named and bucketed as {@code kubernetes/component-base
 * metrics/prometheus/workqueue/metrics.go} registers them (subsystem {@code workqueue}, label {@code name} = the
 * queue's name). The semantics are {@code kubernetes/client-go util/workqueue/metrics.go}'s: depth and adds count
 * accepted (deduplicated) adds, the queue duration runs from an item's first add to its get, the work duration from
 * get to done, the two processor gauges are recomputed every {@link #UNFINISHED_WORK_UPDATE_PERIOD}, and retries
 * count every {@code addAfter} (rate-limited adds included). A queue with an empty name records nothing.
 */
public final class WorkQueueMetrics {
  /** client-go's {@code defaultUnfinishedWorkUpdatePeriod}. */
  public static final Duration UNFINISHED_WORK_UPDATE_PERIOD = Duration.ofMillis(500);
  /** {@code prometheus.ExponentialBuckets(10e-9, 10, 10)}: 1e-8 s … 10 s. */
  public static final List<Double> DURATION_BUCKETS = MetricDescriptor.exponentialBuckets(10e-9, 10, 10);

  public static final MetricDescriptor DEPTH = MetricDescriptor.gauge("workqueue_depth",
      "Current depth of workqueue", "name");
  public static final MetricDescriptor ADDS = MetricDescriptor.counter("workqueue_adds_total",
      "Total number of adds handled by workqueue", "name");
  public static final MetricDescriptor QUEUE_DURATION = MetricDescriptor.histogram(
      "workqueue_queue_duration_seconds", "How long in seconds an item stays in workqueue before being requested.",
      DURATION_BUCKETS, "name");
  public static final MetricDescriptor WORK_DURATION = MetricDescriptor.histogram(
      "workqueue_work_duration_seconds", "How long in seconds processing an item from workqueue takes.",
      DURATION_BUCKETS, "name");
  public static final MetricDescriptor UNFINISHED_WORK = MetricDescriptor.gauge(
      "workqueue_unfinished_work_seconds", "How many seconds of work has done that is in progress and hasn't been"
          + " observed by work_duration. Large values indicate stuck threads. One can deduce the number of stuck"
          + " threads by observing the rate at which this increases.", "name");
  public static final MetricDescriptor LONGEST_RUNNING_PROCESSOR = MetricDescriptor.gauge(
      "workqueue_longest_running_processor_seconds",
      "How many seconds has the longest running processor for workqueue been running.", "name");
  public static final MetricDescriptor RETRIES = MetricDescriptor.counter("workqueue_retries_total",
      "Total number of retries handled by workqueue", "name");

  /** Every work-queue metric. */
  public static final List<MetricDescriptor> ALL = List.of(DEPTH, ADDS, QUEUE_DURATION, WORK_DURATION,
      UNFINISHED_WORK, LONGEST_RUNNING_PROCESSOR, RETRIES);

  private WorkQueueMetrics() {}
}
