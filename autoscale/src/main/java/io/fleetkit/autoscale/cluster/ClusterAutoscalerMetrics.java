package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.metrics.MetricDescriptor;
import java.util.List;

/**
 * The cluster autoscaler's metrics, named as {@code kubernetes/autoscaler cluster-autoscaler/metrics/metrics_impl.go}
 * registers them (namespace {@code cluster_autoscaler}), for those that apply to FleetKit's autoscaler, plus
 * FleetKit's own GPU gauges per node pool. Given to {@link ClusterAutoscaler.Builder#metrics}; recorded at the end of
 * every {@link ClusterAutoscaler#runOnce()}.
 *
 * <p>Not recorded, because FleetKit has no such thing: the cloud-provider, node-autoprovisioning and unregistered-node
 * metrics, {@code errors_total} (a loop that fails throws), the summary {@code function_duration_quantile_seconds},
 * {@code node_group_backoff_status} (its reason values are the cloud provider's error codes), and the two counters
 * whose upstream names lack {@code _total} ({@code skipped_scale_events_count},
 * {@code old_unregistered_nodes_removed_count}).
 */
public final class ClusterAutoscalerMetrics {
  /** {@code nodes_count} states ({@link #UNREADY} is also the {@code scaled_down_nodes_total} reason of an unready node). */
  public static final String READY = "ready";
  public static final String UNREADY = "unready";
  public static final String NOT_STARTED = "notStarted";
  /** {@code scaled_down_nodes_total} reasons. */
  public static final String EMPTY = "empty";
  public static final String UNDERUTILIZED = "underutilized";
  /** {@code failed_scale_ups_total} reason for a node not ready within the maximum provision time. */
  public static final String TIMEOUT = "timeout";
  /** {@code function} and {@code activity} labels. */
  public static final String MAIN = "main";
  public static final String SCALE_UP = "scaleUp";
  public static final String SCALE_DOWN = "scaleDown";
  /** The soft taints' part of a loop ({@link SoftTaints}; upstream's {@code ScaleDownSoftTaintUnneeded}). */
  public static final String SCALE_DOWN_SOFT_TAINT_UNNEEDED = "scaleDown:softTaintUnneeded";

  /** {@code ExponentialBuckets(0.01, 1.5, 30)}: 10 ms … about 1278 s. */
  public static final List<Double> FUNCTION_BUCKETS = MetricDescriptor.exponentialBuckets(0.01, 1.5, 30);

  public static final MetricDescriptor CLUSTER_SAFE_TO_AUTOSCALE = MetricDescriptor.gauge(
      "cluster_autoscaler_cluster_safe_to_autoscale",
      "Whether or not cluster is healthy enough for autoscaling. 1 if it is, 0 otherwise.");
  public static final MetricDescriptor NODES_COUNT = MetricDescriptor.gauge("cluster_autoscaler_nodes_count",
      "Number of nodes in cluster.", "state");
  public static final MetricDescriptor NODE_GROUPS_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_node_groups_count", "Number of node groups managed by CA.", "node_group_type");
  public static final MetricDescriptor UNSCHEDULABLE_PODS_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_unschedulable_pods_count", "Number of unschedulable pods in the cluster.", "type");
  public static final MetricDescriptor MAX_NODES_COUNT = MetricDescriptor.gauge("cluster_autoscaler_max_nodes_count",
      "Maximum number of nodes in all node groups");
  public static final MetricDescriptor CLUSTER_CPU_CURRENT_CORES = MetricDescriptor.gauge(
      "cluster_autoscaler_cluster_cpu_current_cores", "Current number of cores in the cluster, minus deleting nodes.");
  public static final MetricDescriptor CPU_LIMITS_CORES = MetricDescriptor.gauge("cluster_autoscaler_cpu_limits_cores",
      "Minimum and maximum number of cores in the cluster.", "direction");
  public static final MetricDescriptor MEMORY_LIMITS_BYTES = MetricDescriptor.gauge(
      "cluster_autoscaler_memory_limits_bytes", "Minimum and maximum number of bytes of memory in cluster.",
      "direction");
  public static final MetricDescriptor CLUSTER_MEMORY_CURRENT_BYTES = MetricDescriptor.gauge(
      "cluster_autoscaler_cluster_memory_current_bytes",
      "Current number of bytes of memory in the cluster, minus deleting nodes.");
  public static final MetricDescriptor NODE_GROUP_MIN_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_node_group_min_count", "Minimum number of nodes in the node group", "node_group");
  public static final MetricDescriptor NODE_GROUP_MAX_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_node_group_max_count", "Maximum number of nodes in the node group", "node_group");
  public static final MetricDescriptor NODE_GROUP_TARGET_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_node_group_target_count", "Target number of nodes in the node group by CA.", "node_group");
  public static final MetricDescriptor NODE_GROUP_HEALTHINESS = MetricDescriptor.gauge(
      "cluster_autoscaler_node_group_healthiness",
      "Whether or not node group is healthy enough for autoscaling. 1 if it is, 0 otherwise.", "node_group");
  public static final MetricDescriptor LAST_ACTIVITY = MetricDescriptor.gauge("cluster_autoscaler_last_activity",
      "Last time certain part of CA logic executed.", "activity");
  public static final MetricDescriptor FUNCTION_DURATION = MetricDescriptor.histogram(
      "cluster_autoscaler_function_duration_seconds", "Time taken by various parts of CA main loop.",
      FUNCTION_BUCKETS, "function");
  public static final MetricDescriptor SCALED_UP_NODES = MetricDescriptor.counter(
      "cluster_autoscaler_scaled_up_nodes_total", "Number of nodes added by CA.");
  public static final MetricDescriptor SCALED_UP_GPU_NODES = MetricDescriptor.counter(
      "cluster_autoscaler_scaled_up_gpu_nodes_total", "Number of GPU nodes added by CA, by GPU name.",
      "gpu_resource_name", "gpu_name");
  public static final MetricDescriptor FAILED_SCALE_UPS = MetricDescriptor.counter(
      "cluster_autoscaler_failed_scale_ups_total", "Number of times scale-up operation has failed.", "reason");
  public static final MetricDescriptor FAILED_GPU_SCALE_UPS = MetricDescriptor.counter(
      "cluster_autoscaler_failed_gpu_scale_ups_total", "Number of times scale-up operation has failed.", "reason",
      "gpu_resource_name", "gpu_name");
  public static final MetricDescriptor SCALED_DOWN_NODES = MetricDescriptor.counter(
      "cluster_autoscaler_scaled_down_nodes_total", "Number of nodes removed by CA.", "reason");
  public static final MetricDescriptor SCALED_DOWN_GPU_NODES = MetricDescriptor.counter(
      "cluster_autoscaler_scaled_down_gpu_nodes_total", "Number of GPU nodes removed by CA, by reason and GPU name.",
      "reason", "gpu_resource_name", "gpu_name");
  public static final MetricDescriptor EVICTED_PODS = MetricDescriptor.counter("cluster_autoscaler_evicted_pods_total",
      "Number of pods evicted by CA", "eviction_result");
  public static final MetricDescriptor UNNEEDED_NODES_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_unneeded_nodes_count", "Number of nodes currently considered unneeded by CA.");
  public static final MetricDescriptor UNREMOVABLE_NODES_COUNT = MetricDescriptor.gauge(
      "cluster_autoscaler_unremovable_nodes_count", "Number of nodes currently considered unremovable by CA.",
      "reason");
  public static final MetricDescriptor SCALE_DOWN_IN_COOLDOWN = MetricDescriptor.gauge(
      "cluster_autoscaler_scale_down_in_cooldown", "Whether or not the scale down is in cooldown. 1 if its, 0 otherwise.");

  /** FleetKit's own: allocated over allocatable GPUs of a node pool's nodes (whole devices and shares). */
  public static final MetricDescriptor GPU_ALLOCATED_RATIO = MetricDescriptor.gauge("fleetkit_gpu_allocated_ratio",
      "Allocated GPUs (whole devices plus shares) over the GPUs of the node pool's nodes, 0 to 1.", "node_pool");
  /** FleetKit's own: the part of a pool's free GPU capacity that lies on partly used devices; see {@link GpuPoolUsage}. */
  public static final MetricDescriptor GPU_FRAGMENTATION_RATIO = MetricDescriptor.gauge(
      "fleetkit_gpu_fragmentation_ratio",
      "Free GPU capacity on partly used devices over all free GPU capacity of the node pool, 0 to 1.", "node_pool");

  /** Every cluster-autoscaler metric FleetKit records, with upstream's names. */
  public static final List<MetricDescriptor> ALL = List.of(CLUSTER_SAFE_TO_AUTOSCALE, NODES_COUNT, NODE_GROUPS_COUNT,
      UNSCHEDULABLE_PODS_COUNT, MAX_NODES_COUNT, CLUSTER_CPU_CURRENT_CORES, CPU_LIMITS_CORES,
      CLUSTER_MEMORY_CURRENT_BYTES, MEMORY_LIMITS_BYTES,
      NODE_GROUP_MIN_COUNT, NODE_GROUP_MAX_COUNT, NODE_GROUP_TARGET_COUNT, NODE_GROUP_HEALTHINESS, LAST_ACTIVITY,
      FUNCTION_DURATION, SCALED_UP_NODES, SCALED_UP_GPU_NODES, FAILED_SCALE_UPS, FAILED_GPU_SCALE_UPS,
      SCALED_DOWN_NODES, SCALED_DOWN_GPU_NODES, EVICTED_PODS, UNNEEDED_NODES_COUNT, UNREMOVABLE_NODES_COUNT,
      SCALE_DOWN_IN_COOLDOWN);

  /** FleetKit's own GPU gauges, recorded beside {@link #ALL}. */
  public static final List<MetricDescriptor> GPU = List.of(GPU_ALLOCATED_RATIO, GPU_FRAGMENTATION_RATIO);

  private ClusterAutoscalerMetrics() {}
}
