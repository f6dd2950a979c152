package io.fleetkit.autoscale.cluster;

import java.time.Duration;
import java.util.Objects;

/**
 * The cluster autoscaler's settings, with upstream's flag defaults ({@link #defaults()}).
 *
 * @param scaleDownUtilizationThreshold {@code --scale-down-utilization-threshold} (0.5)
 * @param scaleDownGpuUtilizationThreshold {@code --scale-down-gpu-utilization-threshold} (0.5)
 * @param scaleDownUnneededTime {@code --scale-down-unneeded-time} (10 min)
 * @param scaleDownDelayAfterAdd {@code --scale-down-delay-after-add} (10 min)
 * @param maxNodeProvisionTime {@code --max-node-provision-time} (15 min): a node not ready by then is removed and
 *     its pool backed off
 * @param initialBackoff {@code --initial-node-group-backoff-duration} (5 min), doubled on each failure
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
 */
public record AutoscalerOptions(double scaleDownUtilizationThreshold, double scaleDownGpuUtilizationThreshold,
    Duration scaleDownUnneededTime, Duration scaleDownDelayAfterAdd, Duration maxNodeProvisionTime,
    Duration initialBackoff, Duration maxBackoff, Duration backoffReset, int maxEmptyBulkDelete,
    int maxDrainParallelism, int maxNodesTotal, Duration newPodScaleUpDelay, boolean enforceNodeGroupMinSize,
    Duration unremovableNodeRecheckTimeout, Duration scaleDownSimulationTimeout) {

  private static final AutoscalerOptions DEFAULTS = new AutoscalerOptions(0.5, 0.5, Duration.ofMinutes(10),
      Duration.ofMinutes(10), Duration.ofMinutes(15), Duration.ofMinutes(5), Duration.ofMinutes(30),
      Duration.ofHours(3), 10, 1, 0, Duration.ZERO, false, Duration.ofMinutes(5), Duration.ofSeconds(30));

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
    if (scaleDownSimulationTimeout.isZero()) {
      throw new IllegalArgumentException("autoscaler options: scaleDownSimulationTimeout " + scaleDownSimulationTimeout
          + " must be positive (no node could be simulated)");
    }
    if (maxEmptyBulkDelete < 0 || maxDrainParallelism < 0 || maxNodesTotal < 0) {
      throw new IllegalArgumentException("autoscaler options: maxEmptyBulkDelete " + maxEmptyBulkDelete
          + ", maxDrainParallelism " + maxDrainParallelism + " and maxNodesTotal " + maxNodesTotal
          + " must not be negative");
    }
  }

  private static void check(double v, String field) {
    if (!(v >= 0 && v <= 1)) {
      throw new IllegalArgumentException("autoscaler options: " + field + " " + v + " must be between 0 and 1");
    }
  }

  private static void nonNegative(Duration d, String field) {
    Objects.requireNonNull(d, field);
    if (d.isNegative()) {
      throw new IllegalArgumentException("autoscaler options: " + field + " " + d + " must not be negative");
    }
  }

  /** Upstream's defaults. */
  public static AutoscalerOptions defaults() {
    return DEFAULTS;
  }

  public AutoscalerOptions withScaleDownUnneededTime(Duration d) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold, d,
        scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff, backoffReset, maxEmptyBulkDelete,
        maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay, enforceNodeGroupMinSize,
        unremovableNodeRecheckTimeout, scaleDownSimulationTimeout);
  }

  public AutoscalerOptions withScaleDownDelayAfterAdd(Duration d) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, d, maxNodeProvisionTime, initialBackoff, maxBackoff, backoffReset, maxEmptyBulkDelete,
        maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay, enforceNodeGroupMinSize,
        unremovableNodeRecheckTimeout, scaleDownSimulationTimeout);
  }

  public AutoscalerOptions withMaxNodeProvisionTime(Duration d) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, scaleDownDelayAfterAdd, d, initialBackoff, maxBackoff, backoffReset,
        maxEmptyBulkDelete, maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay, enforceNodeGroupMinSize,
        unremovableNodeRecheckTimeout, scaleDownSimulationTimeout);
  }

  public AutoscalerOptions withMaxNodesTotal(int n) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff,
        backoffReset, maxEmptyBulkDelete, maxDrainParallelism, n, newPodScaleUpDelay, enforceNodeGroupMinSize,
        unremovableNodeRecheckTimeout, scaleDownSimulationTimeout);
  }

  public AutoscalerOptions withEnforceNodeGroupMinSize(boolean b) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff,
        backoffReset, maxEmptyBulkDelete, maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay, b, unremovableNodeRecheckTimeout, scaleDownSimulationTimeout);
  }

  public AutoscalerOptions withUnremovableNodeRecheckTimeout(Duration d) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff,
        backoffReset, maxEmptyBulkDelete, maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay,
        enforceNodeGroupMinSize, d, scaleDownSimulationTimeout);
  }

  public AutoscalerOptions withScaleDownSimulationTimeout(Duration d) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff,
        backoffReset, maxEmptyBulkDelete, maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay,
        enforceNodeGroupMinSize, unremovableNodeRecheckTimeout, d);
  }

  public AutoscalerOptions withMaxEmptyBulkDelete(int n) {
    return new AutoscalerOptions(scaleDownUtilizationThreshold, scaleDownGpuUtilizationThreshold,
        scaleDownUnneededTime, scaleDownDelayAfterAdd, maxNodeProvisionTime, initialBackoff, maxBackoff,
        backoffReset, n, maxDrainParallelism, maxNodesTotal, newPodScaleUpDelay, enforceNodeGroupMinSize,
        unremovableNodeRecheckTimeout, scaleDownSimulationTimeout);
  }
}
