package io.fleetkit.autoscale.cluster;

import java.util.List;
import java.util.Map;

/**
 * What one {@link ClusterAutoscaler#advanceDeletions()} did between loops.
 *
 * @param deletedNodes the nodes scale-down deleted in this step (their deletion started in an earlier loop)
 * @param failedDeletions the deletions that ended in failure in this step, by node name (the node is untainted, and
 *     uncordoned when the autoscaler cordons, and stays)
 */
public record DeletionProgress(List<String> deletedNodes, Map<String, NodeDeleteResult> failedDeletions) {
  public DeletionProgress {
    deletedNodes = List.copyOf(deletedNodes);
    failedDeletions = Map.copyOf(failedDeletions);
  }
}
