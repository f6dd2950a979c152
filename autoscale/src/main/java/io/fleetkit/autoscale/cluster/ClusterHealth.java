package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Node;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's cluster health check ({@code clusterstate/clusterstate.go}, {@code IsClusterHealthy} and the readiness
 * stats it reads): the autoscaler does not act while too many nodes are unready. A node is <em>unready</em> when its
 * Ready condition is not True, it is not being deleted, and it was created at least its pool's
 * {@code maxNodeStartupTime} ago ({@link AutoscalerOptions#maxNodeStartupTime()} unless the pool gives its own: younger
 * unready nodes are "not started" and do not count); a node with no creation time counts as old, as
 * upstream's zero time does. The cluster is unhealthy when the unready nodes are more than
 * {@code okTotalUnreadyCount} and more than {@code maxTotalUnreadyPercentage} percent of all nodes.
 *
 * <p>Stateless.
 */
final class ClusterHealth {
  private ClusterHealth() {}

  /**
   * Whether {@code node} counts as unready at {@code now} (upstream's readiness stats, {@code Unready}), with
   * {@code startupTime} its pool's {@code maxNodeStartupTime}.
   */
  static boolean unready(Node node, Instant now, Duration startupTime) {
    if (node.isReady() || node.metadata().deletionTimestamp() != null) {
      return false;
    }
    return !startedRecently(node.metadata().creationTimestamp(), now, startupTime);
  }

  /**
   * Whether a node created at {@code created} (null: long ago) is within the start-up time {@code startupTime} at
   * {@code now}.
   */
  static boolean startedRecently(@Nullable Instant created, Instant now, Duration startupTime) {
    return created != null && created.plus(startupTime).isAfter(now);
  }

  /**
   * Upstream's {@code IsClusterHealthy}: false when {@code unready} exceeds both {@code okTotalUnreadyCount} and
   * {@code maxTotalUnreadyPercentage} percent of {@code total} nodes.
   */
  static boolean healthy(int unready, int total, AutoscalerOptions options) {
    return !(unready > options.okTotalUnreadyCount()
        && unready > options.maxTotalUnreadyPercentage() / 100.0 * total);
  }
}
