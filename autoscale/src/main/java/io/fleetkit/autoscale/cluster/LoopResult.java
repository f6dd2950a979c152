package io.fleetkit.autoscale.cluster;

import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link ClusterAutoscaler#runOnce()} did.
 *
 * @param readyNodes launched nodes that finished starting in this loop
 * @param timedOutNodes launched nodes removed for not being ready within the maximum provision time
 * @param scaleUp the scale-up plan (its {@code chosen} option was carried out), or {@code null} when scale-up did
 *     not run
 * @param launchedNodes the nodes created by this loop's scale-up (and by min-size enforcement)
 * @param scaleUpFailures the machines of this loop's scale-up (and min-size enforcement) the cloud refused
 *     ({@link InstanceCreation}), one entry per pool and error code; their pools are backed off
 * @param unneededNodes nodes that are now candidates for removal (at or under the threshold, pods can move)
 * @param unremovableNodes pool nodes kept, with upstream's reason (e.g. {@code NotReplicated},
 *     {@code NotUnderutilized}, {@code NoPlaceToMovePods})
 * @param deletedNodes nodes scale-down deleted in this loop (their deletion may have started in an earlier one)
 * @param deletionsStarted nodes whose deletion scale-down started in this loop (tainted, then drained and deleted
 *     in this loop or later ones)
 * @param failedDeletions deletions that ended in failure in this loop, by node name (the node is untainted and
 *     stays)
 * @param halted why the loop did not autoscale, or {@code null} when it did: too many unready nodes
 *     ({@link ClusterAutoscaler#CLUSTER_UNHEALTHY}, upstream's {@code IsClusterHealthy}); then it neither scaled up
 *     nor evaluated scale-down ({@code scaleUp} is null, no node is unneeded), and only deletions started earlier
 *     went on
 */
public record LoopResult(List<String> readyNodes, List<String> timedOutNodes, @Nullable ScaleUpPlan scaleUp,
    List<String> launchedNodes, List<ScaleUpFailure> scaleUpFailures, List<String> unneededNodes,
    Map<String, String> unremovableNodes, List<String> deletedNodes, List<String> deletionsStarted, Map<String, NodeDeleteResult> failedDeletions,
    @Nullable String halted) {
  public LoopResult {
    readyNodes = List.copyOf(readyNodes);
    timedOutNodes = List.copyOf(timedOutNodes);
    launchedNodes = List.copyOf(launchedNodes);
    scaleUpFailures = List.copyOf(scaleUpFailures);
    unneededNodes = List.copyOf(unneededNodes);
    unremovableNodes = Map.copyOf(unremovableNodes);
    deletedNodes = List.copyOf(deletedNodes);
    deletionsStarted = List.copyOf(deletionsStarted);
    failedDeletions = Map.copyOf(failedDeletions);
  }

  /** Whether the loop autoscaled: false when it was {@linkplain #halted halted}. */
  public boolean safeToAutoscale() {
    return halted == null;
  }
}
