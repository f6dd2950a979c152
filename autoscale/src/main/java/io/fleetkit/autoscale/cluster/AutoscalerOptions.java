package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The cluster autoscaler's settings, with upstream's flag defaults ({@link #defaults()}).
 *
 * @param scaleDownUtilizationThreshold {@code --scale-down-utilization-threshold} (0.5)
 * @param scaleDownGpuUtilizationThreshold {@code --scale-down-gpu-utilization-threshold} (0.5)
 * @param scaleDownUnneededTime {@code --scale-down-unneeded-time} (10 min)
 * @param scaleDownDelayAfterAdd {@code --scale-down-delay-after-add} (10 min)
 * @param maxNodeProvisionTime {@code --max-node-provision-time} (15 min): a node not ready when a loop runs after
 *     this has passed since its request is removed and its pool backed off
 * @param initialBackoff {@code --initial-node-group-backoff-duration} (5 min), doubled by each failure after the
 *     previous backoff ended
 * @param maxBackoff {@code --max-node-group-backoff-duration} (30 min)
 * @param backoffReset {@code --node-group-backoff-reset-timeout} (3 h)
 * @param maxEmptyBulkDelete {@code --max-empty-bulk-delete} (10), which upstream passes on as
 *     {@code --max-scale-down-parallelism} when only it is set: empty nodes removed per loop, and the {@code N} of
 *     the scale-down planner's limit on drain simulations (the unneeded nodes found so far plus {@code 2N})
 * @param maxDrainParallelism {@code --max-drain-parallelism} (1): non-empty nodes drained per loop
 * @param maxNodesTotal {@code --max-nodes-total} (0: unlimited)
 * @param newPodScaleUpDelay {@code --new-pod-scale-up-delay} (0 s): younger pending pods are ignored
 * @param enforceNodeGroupMinSize {@code --enforce-node-group-min-size} (false): grow pools below their minimum
 * @param unremovableNodeRecheckTimeout {@code --unremovable-node-recheck-timeout} (5 min): a node a drain simulation
 *     found unremovable is not simulated again before this has passed
 * @param scaleDownSimulationTimeout {@code --scale-down-simulation-timeout} (30 s): how long one scale-down
 *     evaluation may simulate node removals; the candidates left when it has passed are not simulated in that loop.
 *     Measured on the autoscaler's clock, as upstream on the wall clock: on a simulated clock, which stands still
 *     during a loop, it never passes, so simulated runs stay deterministic
 * @param scaleDownDelayAfterDelete {@code --scale-down-delay-after-delete} (0 s; upstream's default is its scan
 *     interval, which one loop of this autoscaler is): no node is deleted until this has passed since a loop started
 *     deletions
 * @param scaleDownDelayAfterFailure {@code --scale-down-delay-after-failure} (3 min): no node is deleted until this
 *     has passed since a loop failed to start its deletions
 * @param maxGracefulTerminationSec {@code --max-graceful-termination-sec} (600): the grace period an eviction gives a
 *     pod at most, and (plus 30 s of headroom) how long a drain waits for its evicted pods to disappear
 * @param maxPodEvictionTime {@code --max-pod-eviction-time} (2 min): how long a refused eviction is retried (every
 *     10 s) before the drain fails
 * @param nodeDeletionBatcherInterval {@code --node-deletion-batcher-interval} (0 s): how long nodes of one pool ready
 *     for deletion are gathered before they are deleted together; 0 deletes each at once
 * @param daemonSetEvictionForEmptyNodes {@code --daemonset-eviction-for-empty-nodes} (false): evict the DaemonSet
 *     pods of an empty node (best effort) before deleting it
 * @param daemonSetEvictionForOccupiedNodes {@code --daemonset-eviction-for-occupied-nodes} (true): evict the
 *     DaemonSet pods of a drained node (best effort)
 * @param ignoreDaemonSetsUtilization {@code --ignore-daemonsets-utilization} (false): scale-down judges a node's
 *     utilization without its DaemonSet pods, their requests taken out of the allocatable ({@link NodeUtilization})
 * @param scaleDownUnreadyTime {@code --scale-down-unready-time} (20 min): how long an unready node must have been
 *     unneeded before it is removed, in place of {@code scaleDownUnneededTime}
 * @param scaleDownUnreadyEnabled {@code --scale-down-unready-enabled} (true): whether unready nodes are scale-down
 *     candidates at all; when false they are unremovable ({@code ScaleDownUnreadyDisabled})
 * @param maxTotalUnreadyPercentage {@code --max-total-unready-percentage} (45): the autoscaler halts (neither scales up
 *     nor down) while more than this percentage of the nodes, and more than {@code okTotalUnreadyCount} nodes, are
 *     unready; between 0 and 100
 * @param okTotalUnreadyCount {@code --ok-total-unready-count} (3): this many unready nodes never halt the autoscaler
 * @param ignoreMirrorPodsUtilization {@code --ignore-mirror-pods-utilization} (false): scale-down judges a node's
 *     utilization without its mirror pods, their requests taken out of the allocatable ({@link NodeUtilization})
 * @param maxNodeStartupTime {@code --max-node-startup-time} (15 min): an unready node younger than this is still
 *     starting ("not started"), and does not count as unready in the cluster's and its pool's health
 * @param maxBulkSoftTaintCount {@code --max-bulk-soft-taint-count} (10): how many soft taints
 *     ({@value SoftTaints#DELETION_CANDIDATE_TAINT}{@code :PreferNoSchedule}) a loop may add to unneeded nodes or
 *     remove from needed ones ({@link SoftTaints}); 0 turns soft tainting off
 * @param maxBulkSoftTaintTime {@code --max-bulk-soft-taint-time} (3 s): how long, on the autoscaler's clock, a loop
 *     may spend on them (a simulated clock does not move within a loop, so only the count limits a simulation)
 * @param minCoresTotal the minimum of {@code --cores-total} (0): scale-down removes no node whose cores would take the
 *     cluster's total under it ({@link ClusterResourceLimits}); 0 is no limit
 * @param maxCoresTotal the maximum of {@code --cores-total} (320,000, upstream's {@code DefaultMaxClusterCores}):
 *     scale-up adds no node whose cores would take the cluster's total over it; 0 is no limit
 * @param minMemoryTotal the minimum of {@code --memory-total}, in bytes (0; upstream's flag is in GiB and multiplied
 *     by 2<sup>30</sup>); 0 is no limit
 * @param maxMemoryTotal the maximum of {@code --memory-total}, in bytes (6,400,000 GiB, upstream's
 *     {@code DefaultMaxClusterMemory}); 0 is no limit
 * @param balanceSimilarNodeGroups {@code --balance-similar-node-groups} (false): a scale-up is split over the pools
 *     similar to the chosen one ({@link NodeGroupSimilarity}, {@link ScaleUpBalancing})
 * @param balancingIgnoreLabels {@code --balancing-ignore-label} (none): labels left out when comparing pools, beside
 *     {@link NodeGroupSimilarity#BASIC_IGNORED_LABELS}
 * @param balancingLabels {@code --balancing-label} (none): when given, pools are similar when these labels are on both
 *     with equal values, and nothing else is compared
 * @param maxAllocatableDifferenceRatio {@code --max-allocatable-difference-ratio} (0.05): how much two similar pools'
 *     allocatable resources may differ, as a share of the larger; between 0 and 1
 * @param maxFreeDifferenceRatio {@code --max-free-difference-ratio} (0.05): the same for their free resources
 * @param memoryDifferenceRatio {@code --memory-difference-ratio} (0.015): the same for their memory capacity
 * @param gpuTotal {@code --gpu-total}, one {@link GpuLimit} per GPU type (none): scale-up adds no node whose GPUs
 *     would take the cluster's GPUs of its type over the maximum, scale-down removes none that would take them under
 *     the minimum ({@link ClusterResourceLimits})
 * @param nodeDeleteDelayAfterTaint {@code --node-delete-delay-after-taint} (5 s): how long after tainting the nodes
 *     it removes (empty or to drain) the actuator waits before it checks their pods again, drains them and deletes
 *     them; on the autoscaler's clock ({@link ClusterAutoscaler#nextDeletionStep()} says when); 0 goes on at once
 * @param cordonNodeBeforeTerminating {@code --cordon-node-before-terminating} (true, upstream's default since
 *     cluster-autoscaler 1.34): a node the actuator taints is also cordoned ({@code spec.unschedulable}) in the same
 *     write, and uncordoned when its deletion fails and the taint is removed
 * @param configNamespace {@code --namespace} ({@code kube-system}): the namespace of the status ConfigMap the
 *     autoscaler's status events are about ({@link StatusEvents})
 * @param statusConfigMapName {@code --status-config-map-name} ({@code cluster-autoscaler-status}): that ConfigMap's
 *     name
 * @param writeStatusConfigMap {@code --write-status-configmap} (true): whether the status events are recorded at all
 *     (upstream's {@code LogEventRecorder} is inactive without its ConfigMap); FleetKit writes no status ConfigMap
 */
public record AutoscalerOptions(double scaleDownUtilizationThreshold, double scaleDownGpuUtilizationThreshold,
    Duration scaleDownUnneededTime, Duration scaleDownDelayAfterAdd, Duration maxNodeProvisionTime,
    Duration initialBackoff, Duration maxBackoff, Duration backoffReset, int maxEmptyBulkDelete,
    int maxDrainParallelism, int maxNodesTotal, Duration newPodScaleUpDelay, boolean enforceNodeGroupMinSize,
    Duration unremovableNodeRecheckTimeout, Duration scaleDownSimulationTimeout, Duration scaleDownDelayAfterDelete,
    Duration scaleDownDelayAfterFailure, int maxGracefulTerminationSec, Duration maxPodEvictionTime,
    Duration nodeDeletionBatcherInterval, boolean daemonSetEvictionForEmptyNodes,
    boolean daemonSetEvictionForOccupiedNodes, boolean ignoreDaemonSetsUtilization, Duration scaleDownUnreadyTime,
    boolean scaleDownUnreadyEnabled, double maxTotalUnreadyPercentage, int okTotalUnreadyCount,
    boolean ignoreMirrorPodsUtilization, Duration maxNodeStartupTime, int maxBulkSoftTaintCount,
    Duration maxBulkSoftTaintTime, long minCoresTotal, long maxCoresTotal, long minMemoryTotal, long maxMemoryTotal,
    boolean balanceSimilarNodeGroups, List<String> balancingIgnoreLabels, List<String> balancingLabels,
    double maxAllocatableDifferenceRatio, double maxFreeDifferenceRatio, double memoryDifferenceRatio,
    List<GpuLimit> gpuTotal, Duration nodeDeleteDelayAfterTaint, boolean cordonNodeBeforeTerminating,
    String configNamespace, String statusConfigMapName, boolean writeStatusConfigMap) {

  /** Upstream's {@code DefaultMaxClusterCores}: 5,000 nodes of 64 cores. */
  public static final long DEFAULT_MAX_CORES_TOTAL = 5000L * 64;
  /** Upstream's {@code DefaultMaxClusterMemory} (5,000 nodes of 64 × 20 GiB), in bytes. */
  public static final long DEFAULT_MAX_MEMORY_TOTAL = 5000L * 64 * 20 * (1L << 30);

  private static final AutoscalerOptions DEFAULTS = new AutoscalerOptions(0.5, 0.5, Duration.ofMinutes(10),
      Duration.ofMinutes(10), Duration.ofMinutes(15), Duration.ofMinutes(5), Duration.ofMinutes(30),
      Duration.ofHours(3), 10, 1, 0, Duration.ZERO, false, Duration.ofMinutes(5), Duration.ofSeconds(30),
      Duration.ZERO, Duration.ofMinutes(3), 600, Duration.ofMinutes(2), Duration.ZERO, false, true, false,
      Duration.ofMinutes(20), true, 45, 3, false, Duration.ofMinutes(15), 10, Duration.ofSeconds(3), 0,
      DEFAULT_MAX_CORES_TOTAL, 0, DEFAULT_MAX_MEMORY_TOTAL, false, List.of(), List.of(), 0.05, 0.05, 0.015, List.of(),
      Duration.ofSeconds(5), true, "kube-system", "cluster-autoscaler-status", true);

  public AutoscalerOptions {
    check(scaleDownUtilizationThreshold, "scaleDownUtilizationThreshold");
    check(scaleDownGpuUtilizationThreshold, "scaleDownGpuUtilizationThreshold");
    nonNegative(scaleDownUnneededTime, "scaleDownUnneededTime");
    nonNegative(scaleDownDelayAfterAdd, "scaleDownDelayAfterAdd");
    nonNegative(maxNodeProvisionTime, "maxNodeProvisionTime");
    nonNegative(initialBackoff, "initialBackoff");
    nonNegative(maxBackoff, "maxBackoff");
    nonNegative(backoffReset, "backoffReset");
    nonNegative(newPodScaleUpDelay, "newPodScaleUpDelay");
    nonNegative(unremovableNodeRecheckTimeout, "unremovableNodeRecheckTimeout");
    nonNegative(scaleDownSimulationTimeout, "scaleDownSimulationTimeout");
    nonNegative(scaleDownDelayAfterDelete, "scaleDownDelayAfterDelete");
    nonNegative(scaleDownDelayAfterFailure, "scaleDownDelayAfterFailure");
    nonNegative(maxPodEvictionTime, "maxPodEvictionTime");
    nonNegative(nodeDeletionBatcherInterval, "nodeDeletionBatcherInterval");
    nonNegative(scaleDownUnreadyTime, "scaleDownUnreadyTime");
    nonNegative(maxNodeStartupTime, "maxNodeStartupTime");
    nonNegative(maxBulkSoftTaintTime, "maxBulkSoftTaintTime");
    nonNegative(nodeDeleteDelayAfterTaint, "nodeDeleteDelayAfterTaint");
    if (maxBulkSoftTaintCount < 0) {
      throw new IllegalArgumentException("autoscaler options: maxBulkSoftTaintCount " + maxBulkSoftTaintCount
          + " must not be negative");
    }
    if (!(maxTotalUnreadyPercentage >= 0 && maxTotalUnreadyPercentage <= 100)) {
      throw new IllegalArgumentException("autoscaler options: maxTotalUnreadyPercentage " + maxTotalUnreadyPercentage
          + " must be between 0 and 100");
    }
    if (okTotalUnreadyCount < 0) {
      throw new IllegalArgumentException("autoscaler options: okTotalUnreadyCount " + okTotalUnreadyCount
          + " must not be negative");
    }
    if (maxGracefulTerminationSec < 0) {
      throw new IllegalArgumentException("autoscaler options: maxGracefulTerminationSec " + maxGracefulTerminationSec
          + " must not be negative");
    }
    if (scaleDownSimulationTimeout.isZero()) {
      throw new IllegalArgumentException("autoscaler options: scaleDownSimulationTimeout " + scaleDownSimulationTimeout
          + " must be positive (no node could be simulated)");
    }
    minMax(minCoresTotal, maxCoresTotal, "coresTotal", "--cores-total");
    minMax(minMemoryTotal, maxMemoryTotal, "memoryTotal", "--memory-total");
    balancingIgnoreLabels = labels(balancingIgnoreLabels, "balancingIgnoreLabels", "--balancing-ignore-label");
    balancingLabels = labels(balancingLabels, "balancingLabels", "--balancing-label");
    check(maxAllocatableDifferenceRatio, "maxAllocatableDifferenceRatio");
    check(maxFreeDifferenceRatio, "maxFreeDifferenceRatio");
    check(memoryDifferenceRatio, "memoryDifferenceRatio");
    gpuTotal = List.copyOf(gpuTotal);
    Set<String> gpuTypes = new HashSet<>();
    for (int i = 0; i < gpuTotal.size(); i++) {
      if (!gpuTypes.add(gpuTotal.get(i).gpuType())) {
        throw new IllegalArgumentException("autoscaler options: gpuTotal[" + i + "] GPU type "
            + gpuTotal.get(i).gpuType() + " must be given once (--gpu-total)");
      }
    }
    nonEmpty(configNamespace, "configNamespace", "--namespace");
    nonEmpty(statusConfigMapName, "statusConfigMapName", "--status-config-map-name");
    if (maxEmptyBulkDelete < 0 || maxDrainParallelism < 0 || maxNodesTotal < 0) {
      throw new IllegalArgumentException("autoscaler options: maxEmptyBulkDelete " + maxEmptyBulkDelete
          + ", maxDrainParallelism " + maxDrainParallelism + " and maxNodesTotal " + maxNodesTotal
          + " must not be negative");
    }
  }

  private static void nonEmpty(String v, String field, String flag) {
    if (Objects.requireNonNull(v, field).isEmpty()) {
      throw new IllegalArgumentException("autoscaler options: " + field + " must not be empty (" + flag + ")");
    }
  }

  private static void check(double v, String field) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException("autoscaler options: " + field + " " + v + " must be between 0 and 1");
    }
  }

  private static List<String> labels(List<String> labels, String field, String flag) {
    List<String> out = List.copyOf(labels);
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i).isEmpty()) {
        throw new IllegalArgumentException("autoscaler options: " + field + "[" + i + "] must not be empty (" + flag
            + ")");
      }
    }
    return out;
  }

  private static void minMax(long min, long max, String field, String flag) {
    if (min < 0 || max < 0) {
      throw new IllegalArgumentException("autoscaler options: " + field + " " + min + ":" + max
          + " must not be negative (" + flag + ")");
    }
    if (max > 0 && min > max) {
      throw new IllegalArgumentException("autoscaler options: " + field + " min " + min + " must not exceed max "
          + max + " (" + flag + ")");
    }
  }

  private static void nonNegative(Duration d, String field) {
    Objects.requireNonNull(d, field);
    if (d.isNegative()) {
      throw new IllegalArgumentException("autoscaler options: " + field + " " + d + " must not be negative");
    }
  }

  /**
   * One {@code --gpu-total=gpuType:min:max} (upstream's {@code config.GpuLimits}): the GPUs ({@code nvidia.com/gpu})
   * of the nodes whose {@value NodePool#GPU_LABEL} label is {@code gpuType}, kept at or
   * over {@code min} by scale-down and at or under {@code max} by scale-up. A minimum or maximum of 0 is no limit, as
   * for {@code --cores-total}.
   *
   * @param gpuType the GPU type: the label's value
   * @param min the fewest GPUs of the type scale-down leaves
   * @param max the most GPUs of the type scale-up adds up to
   */
  public record GpuLimit(String gpuType, long min, long max) {
    /**
     * @throws IllegalArgumentException if {@code gpuType} is blank, {@code cpu} or {@code memory}, {@code min} or {@code max} is negative, or
     *     {@code max} is not 0 and less than {@code min}
     */
    public GpuLimit {
      Objects.requireNonNull(gpuType, "gpuType");
      if (gpuType.isBlank()) {
        throw new IllegalArgumentException("autoscaler options: gpuTotal GPU type \"" + gpuType
            + "\" must not be blank (--gpu-total)");
      }
      if (gpuType.equals("cpu") || gpuType.equals("memory")) { // the limits share one map of resource names
        throw new IllegalArgumentException("autoscaler options: gpuTotal GPU type \"" + gpuType
            + "\" must not be cpu or memory (the resources of --cores-total and --memory-total) (--gpu-total)");
      }
      minMax(min, max, "gpuTotal " + gpuType, "--gpu-total");
    }
  }

  /** Upstream's defaults. */
  public static AutoscalerOptions defaults() {
    return DEFAULTS;
  }

  public AutoscalerOptions withScaleDownUtilizationThreshold(double v) {
    Copy c = new Copy(this);
    c.scaleDownUtilizationThreshold = v;
    return c.build();
  }

  public AutoscalerOptions withScaleDownGpuUtilizationThreshold(double v) {
    Copy c = new Copy(this);
    c.scaleDownGpuUtilizationThreshold = v;
    return c.build();
  }

  public AutoscalerOptions withMaxNodeStartupTime(Duration d) {
    Copy c = new Copy(this);
    c.maxNodeStartupTime = d;
    return c.build();
  }

  public AutoscalerOptions withScaleDownUnneededTime(Duration d) {
    Copy c = new Copy(this);
    c.scaleDownUnneededTime = d;
    return c.build();
  }

  public AutoscalerOptions withScaleDownDelayAfterAdd(Duration d) {
    Copy c = new Copy(this);
    c.scaleDownDelayAfterAdd = d;
    return c.build();
  }

  public AutoscalerOptions withMaxNodeProvisionTime(Duration d) {
    Copy c = new Copy(this);
    c.maxNodeProvisionTime = d;
    return c.build();
  }

  public AutoscalerOptions withMaxNodesTotal(int n) {
    Copy c = new Copy(this);
    c.maxNodesTotal = n;
    return c.build();
  }

  public AutoscalerOptions withEnforceNodeGroupMinSize(boolean b) {
    Copy c = new Copy(this);
    c.enforceNodeGroupMinSize = b;
    return c.build();
  }

  public AutoscalerOptions withUnremovableNodeRecheckTimeout(Duration d) {
    Copy c = new Copy(this);
    c.unremovableNodeRecheckTimeout = d;
    return c.build();
  }

  public AutoscalerOptions withScaleDownSimulationTimeout(Duration d) {
    Copy c = new Copy(this);
    c.scaleDownSimulationTimeout = d;
    return c.build();
  }

  public AutoscalerOptions withMaxEmptyBulkDelete(int n) {
    Copy c = new Copy(this);
    c.maxEmptyBulkDelete = n;
    return c.build();
  }

  public AutoscalerOptions withMaxDrainParallelism(int n) {
    Copy c = new Copy(this);
    c.maxDrainParallelism = n;
    return c.build();
  }

  public AutoscalerOptions withScaleDownDelayAfterDelete(Duration d) {
    Copy c = new Copy(this);
    c.scaleDownDelayAfterDelete = d;
    return c.build();
  }

  public AutoscalerOptions withScaleDownDelayAfterFailure(Duration d) {
    Copy c = new Copy(this);
    c.scaleDownDelayAfterFailure = d;
    return c.build();
  }

  public AutoscalerOptions withMaxGracefulTerminationSec(int n) {
    Copy c = new Copy(this);
    c.maxGracefulTerminationSec = n;
    return c.build();
  }

  public AutoscalerOptions withMaxPodEvictionTime(Duration d) {
    Copy c = new Copy(this);
    c.maxPodEvictionTime = d;
    return c.build();
  }

  public AutoscalerOptions withNodeDeletionBatcherInterval(Duration d) {
    Copy c = new Copy(this);
    c.nodeDeletionBatcherInterval = d;
    return c.build();
  }

  public AutoscalerOptions withDaemonSetEvictionForEmptyNodes(boolean b) {
    Copy c = new Copy(this);
    c.daemonSetEvictionForEmptyNodes = b;
    return c.build();
  }

  public AutoscalerOptions withDaemonSetEvictionForOccupiedNodes(boolean b) {
    Copy c = new Copy(this);
    c.daemonSetEvictionForOccupiedNodes = b;
    return c.build();
  }

  public AutoscalerOptions withIgnoreDaemonSetsUtilization(boolean b) {
    Copy c = new Copy(this);
    c.ignoreDaemonSetsUtilization = b;
    return c.build();
  }

  public AutoscalerOptions withIgnoreMirrorPodsUtilization(boolean b) {
    Copy c = new Copy(this);
    c.ignoreMirrorPodsUtilization = b;
    return c.build();
  }

  public AutoscalerOptions withScaleDownUnreadyTime(Duration d) {
    Copy c = new Copy(this);
    c.scaleDownUnreadyTime = d;
    return c.build();
  }

  public AutoscalerOptions withScaleDownUnreadyEnabled(boolean b) {
    Copy c = new Copy(this);
    c.scaleDownUnreadyEnabled = b;
    return c.build();
  }

  public AutoscalerOptions withMaxTotalUnreadyPercentage(double v) {
    Copy c = new Copy(this);
    c.maxTotalUnreadyPercentage = v;
    return c.build();
  }

  public AutoscalerOptions withOkTotalUnreadyCount(int n) {
    Copy c = new Copy(this);
    c.okTotalUnreadyCount = n;
    return c.build();
  }

  /** These options with {@code --max-bulk-soft-taint-count} {@code n} (0: no soft taints). */
  public AutoscalerOptions withMaxBulkSoftTaintCount(int n) {
    Copy c = new Copy(this);
    c.maxBulkSoftTaintCount = n;
    return c.build();
  }

  /** These options with {@code --max-bulk-soft-taint-time} {@code d}. */
  public AutoscalerOptions withMaxBulkSoftTaintTime(Duration d) {
    Copy c = new Copy(this);
    c.maxBulkSoftTaintTime = d;
    return c.build();
  }

  /**
   * These options with {@code --cores-total min:max}: scale-down keeps the cluster's cores at or over {@code min},
   * scale-up at or under {@code max} (0: that side unlimited).
   *
   * @throws IllegalArgumentException if either is negative, or {@code max} is not 0 and less than {@code min}
   */
  public AutoscalerOptions withCoresTotal(long min, long max) {
    Copy c = new Copy(this);
    c.minCoresTotal = min;
    c.maxCoresTotal = max;
    return c.build();
  }

  /**
   * These options with {@code --memory-total}, in bytes (upstream's flag counts GiB): scale-down keeps the cluster's
   * memory at or over {@code minBytes}, scale-up at or under {@code maxBytes} (0: that side unlimited).
   *
   * @throws IllegalArgumentException if either is negative, or {@code maxBytes} is not 0 and less than
   *     {@code minBytes}
   */
  public AutoscalerOptions withMemoryTotal(long minBytes, long maxBytes) {
    Copy c = new Copy(this);
    c.minMemoryTotal = minBytes;
    c.maxMemoryTotal = maxBytes;
    return c.build();
  }

  /**
   * These options with {@code --gpu-total} for each of {@code limits} (replacing any given before; empty: no GPU
   * limit): scale-down keeps the cluster's GPUs of each type at or over its minimum, scale-up at or under its maximum.
   *
   * @throws IllegalArgumentException if two limits name one GPU type
   */
  public AutoscalerOptions withGpuTotal(List<GpuLimit> limits) {
    Copy c = new Copy(this);
    c.gpuTotal = limits;
    return c.build();
  }

  /** The {@code --gpu-total} limit of GPU type {@code gpuType}, or {@code null} when it has none. */
  public @Nullable GpuLimit gpuLimit(String gpuType) {
    for (GpuLimit g : gpuTotal) {
      if (g.gpuType().equals(gpuType)) {
        return g;
      }
    }
    return null;
  }

  /** These options with {@code --balance-similar-node-groups} {@code b}. */
  public AutoscalerOptions withBalanceSimilarNodeGroups(boolean b) {
    Copy c = new Copy(this);
    c.balanceSimilarNodeGroups = b;
    return c.build();
  }

  /** These options with {@code --balancing-ignore-label} for each of {@code labels}. */
  public AutoscalerOptions withBalancingIgnoreLabels(List<String> labels) {
    Copy c = new Copy(this);
    c.balancingIgnoreLabels = labels;
    return c.build();
  }

  /**
   * These options with {@code --balancing-label} for each of {@code labels}: pools are similar when they have these
   * labels with equal values, whatever else differs.
   */
  public AutoscalerOptions withBalancingLabels(List<String> labels) {
    Copy c = new Copy(this);
    c.balancingLabels = labels;
    return c.build();
  }

  /**
   * These options with {@code --max-allocatable-difference-ratio}, {@code --max-free-difference-ratio} and
   * {@code --memory-difference-ratio}.
   *
   * @throws IllegalArgumentException if a ratio is not between 0 and 1
   */
  public AutoscalerOptions withDifferenceRatios(double maxAllocatable, double maxFree, double memory) {
    Copy c = new Copy(this);
    c.maxAllocatableDifferenceRatio = maxAllocatable;
    c.maxFreeDifferenceRatio = maxFree;
    c.memoryDifferenceRatio = memory;
    return c.build();
  }

  /**
   * These options with {@code --node-delete-delay-after-taint} {@code d}: how long the actuator waits after tainting
   * a node before it drains and deletes it (0: at once).
   *
   * @throws IllegalArgumentException if {@code d} is negative
   */
  public AutoscalerOptions withNodeDeleteDelayAfterTaint(Duration d) {
    Copy c = new Copy(this);
    c.nodeDeleteDelayAfterTaint = d;
    return c.build();
  }

  /**
   * These options with {@code --cordon-node-before-terminating} {@code b}: whether the actuator also cordons the nodes
   * it taints (and uncordons them when their deletion fails).
   */
  public AutoscalerOptions withCordonNodeBeforeTerminating(boolean b) {
    Copy c = new Copy(this);
    c.cordonNodeBeforeTerminating = b;
    return c.build();
  }

  /**
   * These options with the status ConfigMap {@code namespace/name} ({@code --namespace},
   * {@code --status-config-map-name}) that the status events are about.
   *
   * @throws IllegalArgumentException if either is empty
   */
  public AutoscalerOptions withStatusConfigMap(String namespace, String name) {
    Copy c = new Copy(this);
    c.configNamespace = namespace;
    c.statusConfigMapName = name;
    return c.build();
  }

  /**
   * These options with {@code --write-status-configmap} {@code b}: false records no status event
   * ({@link StatusEvents}), as upstream's inactive {@code LogEventRecorder}.
   */
  public AutoscalerOptions withWriteStatusConfigMap(boolean b) {
    Copy c = new Copy(this);
    c.writeStatusConfigMap = b;
    return c.build();
  }

  /** The components of an options value, changed one at a time by the {@code withX} methods. */
  private static final class Copy {
    double scaleDownUtilizationThreshold;
    double scaleDownGpuUtilizationThreshold;
    Duration scaleDownUnneededTime;
    Duration scaleDownDelayAfterAdd;
    Duration maxNodeProvisionTime;
    Duration initialBackoff;
    Duration maxBackoff;
    Duration backoffReset;
    int maxEmptyBulkDelete;
    int maxDrainParallelism;
    int maxNodesTotal;
    Duration newPodScaleUpDelay;
    boolean enforceNodeGroupMinSize;
    Duration unremovableNodeRecheckTimeout;
    Duration scaleDownSimulationTimeout;
    Duration scaleDownDelayAfterDelete;
    Duration scaleDownDelayAfterFailure;
    int maxGracefulTerminationSec;
    Duration maxPodEvictionTime;
    Duration nodeDeletionBatcherInterval;
    boolean daemonSetEvictionForEmptyNodes;
    boolean daemonSetEvictionForOccupiedNodes;
    boolean ignoreDaemonSetsUtilization;
    Duration scaleDownUnreadyTime;
    boolean scaleDownUnreadyEnabled;
    double maxTotalUnreadyPercentage;
    int okTotalUnreadyCount;
    boolean ignoreMirrorPodsUtilization;
    Duration maxNodeStartupTime;
    int maxBulkSoftTaintCount;
    Duration maxBulkSoftTaintTime;
    long minCoresTotal;
    long maxCoresTotal;
    long minMemoryTotal;
    long maxMemoryTotal;
    boolean balanceSimilarNodeGroups;
    List<String> balancingIgnoreLabels;
    List<String> balancingLabels;
    double maxAllocatableDifferenceRatio;
    double maxFreeDifferenceRatio;
    double memoryDifferenceRatio;
    List<GpuLimit> gpuTotal;
    Duration nodeDeleteDelayAfterTaint;
    boolean cordonNodeBeforeTerminating;
    String configNamespace;
    String statusConfigMapName;
    boolean writeStatusConfigMap;

    Copy(AutoscalerOptions o) {
      scaleDownUtilizationThreshold = o.scaleDownUtilizationThreshold;
      scaleDownGpuUtilizationThreshold = o.scaleDownGpuUtilizationThreshold;
      scaleDownUnneededTime = o.scaleDownUnneededTime;
      scaleDownDelayAfterAdd = o.scaleDownDelayAfterAdd;
      maxNodeProvisionTime = o.maxNodeProvisionTime;
      initialBackoff = o.initialBackoff;
      maxBackoff = o.maxBackoff;
      backoffReset = o.backoffReset;
      maxEmptyBulkDelete = o.maxEmptyBulkDelete;
      maxDrainParallelism = o.maxDrainParallelism;
      maxNodesTotal = o.maxNodesTotal;
      newPodScaleUpDelay = o.newPodScaleUpDelay;
      enforceNodeGroupMinSize = o.enforceNodeGroupMinSize;
      unremovableNodeRecheckTimeout = o.unremovableNodeRecheckTimeout;
      scaleDownSimulationTimeout = o.scaleDownSimulationTimeout;
      scaleDownDelayAfterDelete = o.scaleDownDelayAfterDelete;
      scaleDownDelayAfterFailure = o.scaleDownDelayAfterFailure;
      maxGracefulTerminationSec = o.maxGracefulTerminationSec;
      maxPodEvictionTime = o.maxPodEvictionTime;
      nodeDeletionBatcherInterval = o.nodeDeletionBatcherInterval;
      daemonSetEvictionForEmptyNodes = o.daemonSetEvictionForEmptyNodes;
      daemonSetEvictionForOccupiedNodes = o.daemonSetEvictionForOccupiedNodes;
      ignoreDaemonSetsUtilization = o.ignoreDaemonSetsUtilization;
      scaleDownUnreadyTime = o.scaleDownUnreadyTime;
      scaleDownUnreadyEnabled = o.scaleDownUnreadyEnabled;
      maxTotalUnreadyPercentage = o.maxTotalUnreadyPercentage;
      okTotalUnreadyCount = o.okTotalUnreadyCount;
      ignoreMirrorPodsUtilization = o.ignoreMirrorPodsUtilization;
      maxNodeStartupTime = o.maxNodeStartupTime;
      maxBulkSoftTaintCount = o.maxBulkSoftTaintCount;
      maxBulkSoftTaintTime = o.maxBulkSoftTaintTime;
      minCoresTotal = o.minCoresTotal;
      maxCoresTotal = o.maxCoresTotal;
      minMemoryTotal = o.minMemoryTotal;
      maxMemoryTotal = o.maxMemoryTotal;
      balanceSimilarNodeGroups = o.balanceSimilarNodeGroups;
      balancingIgnoreLabels = o.balancingIgnoreLabels;
      balancingLabels = o.balancingLabels;
      maxAllocatableDifferenceRatio = o.maxAllocatableDifferenceRatio;
      maxFreeDifferenceRatio = o.maxFreeDifferenceRatio;
      memoryDifferenceRatio = o.memoryDifferenceRatio;
      gpuTotal = o.gpuTotal;
      nodeDeleteDelayAfterTaint = o.nodeDeleteDelayAfterTaint;
      cordonNodeBeforeTerminating = o.cordonNodeBeforeTerminating;
      configNamespace = o.configNamespace;
      statusConfigMapName = o.statusConfigMapName;
      writeStatusConfigMap = o.writeStatusConfigMap;
    }

    AutoscalerOptions build() {
      return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
          scaleDownUnneededTime, scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff, backoffReset,
          maxEmptyBulkDelete, maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay, enforceNodeGroupMinSize,
          unremovableNodeRecheckTimeout, scaleDownSimulationTimeout, scaleDownDelayAfterDelete,
          scaleDownDelayAfterFailure, maxGracefulTerminationSec, maxPodEvictionTime, nodeDeletionBatcherInterval,
          daemonSetEvictionForEmptyNodes, daemonSetEvictionForOccupiedNodes, ignoreDaemonSetsUtilization,
          scaleDownUnreadyTime, scaleDownUnreadyEnabled, maxTotalUnreadyPercentage, okTotalUnreadyCount,
          ignoreMirrorPodsUtilization, maxNodeStartupTime, maxBulkSoftTaintCount, maxBulkSoftTaintTime, minCoresTotal,
          maxCoresTotal, minMemoryTotal, maxMemoryTotal, balanceSimilarNodeGroups, balancingIgnoreLabels,
          balancingLabels, maxAllocatableDifferenceRatio, maxFreeDifferenceRatio, memoryDifferenceRatio, gpuTotal,
          nodeDeleteDelayAfterTaint, cordonNodeBeforeTerminating, configNamespace, statusConfigMapName,
          writeStatusConfigMap);
    }
  }
}
