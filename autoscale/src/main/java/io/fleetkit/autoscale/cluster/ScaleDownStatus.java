package io.fleetkit.autoscale.cluster;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one call to start deletions did (upstream's {@code scaledown/status.ScaleDownStatus}, the parts its actuator
 * fills).
 *
 * @param result the outcome
 * @param scaledDownNodes the nodes whose deletion started, in the order started
 * @param nodeDeleteResults the deletions that ended since the results were last taken, by node name
 * @param error why starting failed, or {@code null}
 */
public record ScaleDownStatus(Result result, List<ScaleDownNode> scaledDownNodes,
    Map<String, NodeDeleteResult> nodeDeleteResults, @Nullable AutoscalerError error) {
  /** Upstream's {@code ScaleDownResult}s an actuator returns. */
  public enum Result {
    /** Starting a deletion failed; no further node was started ({@code ScaleDownError}). */
    ERROR,
    /** There was nothing to delete within the budgets ({@code ScaleDownNoNodeDeleted}). */
    NO_NODE_DELETED,
    /** Deletions started ({@code ScaleDownNodeDeleteStarted}). */
    NODE_DELETE_STARTED
  }

  public ScaleDownStatus {
    Objects.requireNonNull(result, "result");
    scaledDownNodes = List.copyOf(scaledDownNodes);
    nodeDeleteResults = Map.copyOf(nodeDeleteResults);
  }

  /**
   * A node whose deletion started (upstream's {@code status.ScaleDownNode}).
   *
   * @param node the node's name
   * @param pool its pool, or {@code ""}
   * @param evictedPods {@code namespace/name} of the pods its drain evicts (not its DaemonSet pods); empty for an
   *     empty node
   * @param utilization the node's utilization when its deletion started
   */
  public record ScaleDownNode(String node, String pool, List<String> evictedPods, NodeUtilization utilization) {
    public ScaleDownNode {
      Objects.requireNonNull(node, "node");
      Objects.requireNonNull(pool, "pool");
      evictedPods = List.copyOf(evictedPods);
      Objects.requireNonNull(utilization, "utilization");
    }
  }
}
