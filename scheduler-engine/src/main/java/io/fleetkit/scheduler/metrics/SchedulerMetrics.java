package io.fleetkit.scheduler.metrics;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The scheduler's metrics, with the names, labels, buckets and help texts of {@code kubernetes/kubernetes
 * pkg/scheduler/metrics/metrics.go} (subsystem {@code scheduler}), so kube-scheduler dashboards and alerts work on
 * FleetKit. Label values are kube's: {@code result} is {@link #SCHEDULED}, {@link #UNSCHEDULABLE} or
 * {@link #ERROR}; {@code profile} is the profile's scheduler name; {@code queue} is {@code active}, {@code backoff},
 * {@code unschedulable} or {@code gated}; {@code extension_point} and {@code status} are the framework's names
 * ({@code PreFilter}, {@code Score}, ...; {@code Success}, {@code Unschedulable}, ...).
 *
 * <p>What FleetKit measures and where: an attempt is one {@code scheduleOne} (its duration covers the scheduling
 * cycle and, as bindings are synchronous here, the binding cycle); a pod held by Permit is counted when its binding
 * ends. The SLI duration runs from the pod's entry into the queue to its binding. Extension-point durations are
 * recorded for PreFilter, Filter, PostFilter, PreScore, Score, Reserve, Unreserve, Permit, PreBind, Bind and PostBind
 * (Unreserve and PostBind with status {@code Success}, as kube), but, unlike kube, only in the sampled cycles, like the
 * plugin execution durations: 10 % of scheduling cycles by default (kube's {@code pluginMetricsSamplePercent}; see
 * {@code SchedulerBuilder.metricsSamplePercent}) time their extension points and their plugins (at Filter and Score,
 * each plugin's call over a batch of nodes, the mean per node observed; Score's plugins whose weighted sum is kept
 * across cycles as one pass, an equal share each). Eleven histogram observations per attempt cost more than the 3 %
 * overhead budget allows at FleetKit's cycle times; a sample keeps the distribution (quantiles) and scales the counts
 * by the percentage. The Permit wait is measured on the scheduler's clock, {@code result} being the status code it
 * ended with ({@code Success} or {@code Unschedulable}). {@code scheduler_unschedulable_pods} counts, per plugin, the
 * queued pods whose last attempt that plugin rejected or that it gates at PreEnqueue (a pod leaves it when popped for
 * its next attempt or deleted). {@code scheduler_plugin_evaluation_total} counts every PreFilter, PreScore and
 * Score call and every Filter call on a node during the cycle's search for feasible nodes (Filter calls made by
 * preemption's dry runs are not counted); counts are summed per cycle and added to the counters at the end of each
 * {@code scheduleOne()} call, every 256 cycles of {@code runUntilIdle()} and
 * whenever the queue runs empty.
 */
public final class SchedulerMetrics {
  public static final String SCHEDULED = "scheduled";
  public static final String UNSCHEDULABLE = "unschedulable";
  public static final String ERROR = "error";

  /** {@code ExponentialBuckets(0.001, 2, 15)}: 1 ms … 16.384 s. */
  public static final List<Double> ATTEMPT_BUCKETS = MetricDescriptor.exponentialBuckets(0.001, 2, 15);
  /** {@code ExponentialBuckets(0.0001, 2, 12)}: 0.1 ms … 204.8 ms. */
  public static final List<Double> EXTENSION_POINT_BUCKETS = MetricDescriptor.exponentialBuckets(0.0001, 2, 12);
  /** {@code ExponentialBuckets(0.00001, 1.5, 20)}: 10 µs … about 22 ms. */
  public static final List<Double> PLUGIN_BUCKETS = MetricDescriptor.exponentialBuckets(0.00001, 1.5, 20);
  /** {@code ExponentialBuckets(0.01, 2, 20)}: 10 ms … 5242.88 s. */
  public static final List<Double> SLI_BUCKETS = MetricDescriptor.exponentialBuckets(0.01, 2, 20);

  public static final MetricDescriptor SCHEDULE_ATTEMPTS = MetricDescriptor.counter(
      "scheduler_schedule_attempts_total", "Number of attempts to schedule pods, by the result. 'unschedulable'"
          + " means a pod could not be scheduled, while 'error' means an internal scheduler problem.",
      "result", "profile");
  public static final MetricDescriptor SCHEDULING_ATTEMPT_DURATION = MetricDescriptor.histogram(
      "scheduler_scheduling_attempt_duration_seconds",
      "Scheduling attempt latency in seconds (scheduling algorithm + binding)", ATTEMPT_BUCKETS, "result",
      "profile");
  public static final MetricDescriptor SCHEDULING_ALGORITHM_DURATION = MetricDescriptor.histogram(
      "scheduler_scheduling_algorithm_duration_seconds", "Scheduling algorithm latency in seconds",
      ATTEMPT_BUCKETS);
  public static final MetricDescriptor PREEMPTION_VICTIMS = MetricDescriptor.histogram(
      "scheduler_preemption_victims", "Number of selected preemption victims",
      MetricDescriptor.exponentialBuckets(1, 2, 7));
  public static final MetricDescriptor PREEMPTION_ATTEMPTS = MetricDescriptor.counter(
      "scheduler_preemption_attempts_total", "Total preemption attempts in the cluster till now");
  public static final MetricDescriptor PENDING_PODS = MetricDescriptor.gauge("scheduler_pending_pods",
      "Number of pending pods, by the queue type. 'active' means number of pods in activeQ; 'backoff' means number"
          + " of pods in backoffQ; 'unschedulable' means number of pods in unschedulablePods that the scheduler"
          + " attempted to schedule and failed; 'gated' is the number of unschedulable pods that the scheduler never"
          + " attempted to schedule because they are gated.", "queue");
  public static final MetricDescriptor POD_SCHEDULING_SLI_DURATION = MetricDescriptor.histogram(
      "scheduler_pod_scheduling_sli_duration_seconds", "E2e latency for a pod being scheduled, from the time the pod"
          + " enters the scheduling queue and might involve multiple scheduling attempts.", SLI_BUCKETS, "attempts");
  public static final MetricDescriptor POD_SCHEDULING_ATTEMPTS = MetricDescriptor.histogram(
      "scheduler_pod_scheduling_attempts", "Number of attempts to successfully schedule a pod.",
      MetricDescriptor.exponentialBuckets(1, 2, 5));
  public static final MetricDescriptor FRAMEWORK_EXTENSION_POINT_DURATION = MetricDescriptor.histogram(
      "scheduler_framework_extension_point_duration_seconds",
      "Latency for running all plugins of a specific extension point.", EXTENSION_POINT_BUCKETS, "extension_point",
      "status", "profile");
  public static final MetricDescriptor PLUGIN_EXECUTION_DURATION = MetricDescriptor.histogram(
      "scheduler_plugin_execution_duration_seconds", "Duration for running a plugin at a specific extension point.",
      PLUGIN_BUCKETS, "plugin", "extension_point", "status");
  public static final MetricDescriptor QUEUE_INCOMING_PODS = MetricDescriptor.counter(
      "scheduler_queue_incoming_pods_total", "Number of pods added to scheduling queues by event and queue type.",
      "queue", "event");
  public static final MetricDescriptor PERMIT_WAIT_DURATION = MetricDescriptor.histogram(
      "scheduler_permit_wait_duration_seconds", "Duration of waiting on permit.", ATTEMPT_BUCKETS, "result");
  public static final MetricDescriptor UNSCHEDULABLE_PODS = MetricDescriptor.gauge("scheduler_unschedulable_pods",
      "The number of unschedulable pods broken down by plugin name. A pod will increment the gauge for all plugins"
          + " that caused it to not schedule and so this metric have meaning only when broken down by plugin.",
      "plugin", "profile");
  public static final MetricDescriptor PLUGIN_EVALUATION = MetricDescriptor.counter(
      "scheduler_plugin_evaluation_total", "Number of attempts to schedule pods by each plugin and the extension"
          + " point (available only in PreFilter, Filter, PreScore, and Score).", "plugin", "extension_point",
      "profile");
  public static final MetricDescriptor CACHE_SIZE = MetricDescriptor.gauge("scheduler_cache_size",
      "Number of nodes, pods, and assumed (bound) pods in the scheduler cache.", "type");

  /** Every scheduler metric FleetKit records. */
  public static final List<MetricDescriptor> ALL = List.of(SCHEDULE_ATTEMPTS, SCHEDULING_ATTEMPT_DURATION,
      SCHEDULING_ALGORITHM_DURATION, PREEMPTION_VICTIMS, PREEMPTION_ATTEMPTS, PENDING_PODS,
      POD_SCHEDULING_SLI_DURATION, POD_SCHEDULING_ATTEMPTS, FRAMEWORK_EXTENSION_POINT_DURATION,
      PLUGIN_EXECUTION_DURATION, QUEUE_INCOMING_PODS, CACHE_SIZE, PERMIT_WAIT_DURATION, UNSCHEDULABLE_PODS,
      PLUGIN_EVALUATION);

  private SchedulerMetrics() {}
}
