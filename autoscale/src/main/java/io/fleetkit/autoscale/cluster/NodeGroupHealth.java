package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Upstream's per-node-group health ({@code clusterstate/clusterstate.go}: the per-group {@code Readiness},
 * {@code AcceptableRange}, {@code IsNodeGroupHealthy} and {@code calculateUpcomingNodesInNodeGroup}).
 *
 * <p>A group's <em>acceptable range</em> comes from its target size: at least the target minus the nodes that failed
 * to register in time and minus the nodes of the scale-up in progress, at most the target plus the nodes being
 * scaled down. The group is unhealthy when its ready nodes fall short of that minimum by more than
 * {@code okTotalUnreadyCount} nodes and by more than {@code maxTotalUnreadyPercentage} percent of its registered
 * nodes (ready, unready and not started); a group with no registered node is healthy when its target is zero or its
 * minimum is zero. Upstream's scale-up skips an unhealthy group ({@link #NOT_READY_REASON}).
 *
 * <p>FleetKit's pools map onto these facts ({@link #byPool}, or {@link NodeListFacts#poolHealth} from the facts the
 * loop keeps): a pool's target is its nodes not being deleted (a
 * launch creates the node objects at once, so no node is ever unregistered); the nodes still starting
 * ({@link SimulatedNodes#isStarting}) are the scale-up in progress, removed after {@code maxNodeProvisionTime} with
 * the pool backed off; a node counts as unready or not started by {@link ClusterHealth}'s rule. So a pool is
 * unhealthy when its nodes that finished starting yet are not Ready outnumber both thresholds. The Suspended
 * condition (upstream's suspended nodes) is not modelled.
 *
 * <p>Stateless.
 */
final class NodeGroupHealth {
  /** Upstream's skipped reason for an unhealthy group ({@code NotReadyReason}). */
  static final String NOT_READY_REASON = "not ready for scale-up";

  private NodeGroupHealth() {}

  /**
   * Upstream's per-group {@code Readiness}, as counts.
   *
   * @param ready nodes Ready
   * @param unready nodes not Ready that finished starting
   * @param notStarted nodes not Ready created within the start-up time
   * @param longUnregistered instances not registered as nodes within the maximum provision time
   */
  record Readiness(int ready, int unready, int notStarted, int longUnregistered) {
    Readiness {
      if (ready < 0 || unready < 0 || notStarted < 0 || longUnregistered < 0) {
        throw new IllegalArgumentException("node group readiness: counts must not be negative, got ready " + ready
            + ", unready " + unready + ", notStarted " + notStarted + ", longUnregistered " + longUnregistered);
      }
    }

    /** The registered nodes the health percentage is taken of. */
    int registered() {
      return ready + unready + notStarted;
    }
  }

  /** Upstream's {@code AcceptableRange}: how many nodes the group may have now. */
  record AcceptableRange(int minNodes, int maxNodes, int currentTarget) {}

  /**
   * Upstream's {@code updateAcceptableRanges} for one group.
   *
   * @param target the group's target size
   * @param longUnregistered its instances that did not register within the maximum provision time
   * @param scaleUpIncrease the nodes of its scale-up in progress (zero when none, or when it expired)
   * @param scaleDownRequests its nodes being deleted by scale-down
   */
  static AcceptableRange acceptableRange(int target, int longUnregistered, int scaleUpIncrease,
      int scaleDownRequests) {
    return new AcceptableRange(target - longUnregistered - scaleUpIncrease, target + scaleDownRequests, target);
  }

  /**
   * Upstream's {@code IsNodeGroupHealthy}.
   *
   * @param readiness the group's readiness, {@code null} when it has no registered (nor unregistered) node
   */
  static boolean healthy(@Nullable Readiness readiness, AcceptableRange range, AutoscalerOptions options) {
    if (readiness == null) { // no nodes, but target zero or just scaling up
      return range.currentTarget() == 0 || (range.minNodes() == 0 && range.currentTarget() > 0);
    }
    int unjustifiedUnready = Math.max(0, range.minNodes() - readiness.ready());
    return !(unjustifiedUnready > options.okTotalUnreadyCount()
        && unjustifiedUnready > options.maxTotalUnreadyPercentage() / 100.0 * readiness.registered());
  }

  /**
   * Upstream's {@code calculateUpcomingNodesInNodeGroup}: the target minus the nodes that are there or given up on
   * (ready, unready, long unregistered); the not-started ones and those not yet registered are upcoming.
   */
  static int upcoming(Readiness readiness, AcceptableRange range) {
    return range.currentTarget() - (readiness.ready() + readiness.unready() + readiness.longUnregistered());
  }

  /**
   * Upstream's {@code GetUpcomingNodes} for one group: the upcoming nodes, counted only while the group has a scale-up
   * request and is not backed off (0 otherwise, or when the count is not positive).
   */
  static int upcomingNodes(@Nullable Readiness readiness, AcceptableRange range, boolean scaleUpRequested,
      boolean backedOff) {
    int n = readiness == null ? range.currentTarget() : upcoming(readiness, range);
    return n <= 0 || !scaleUpRequested || backedOff ? 0 : n;
  }

  /** Upstream's {@code IsNodeGroupScalingUp}: a scale-up request with upcoming nodes. */
  static boolean scalingUp(@Nullable Readiness readiness, AcceptableRange range, boolean scaleUpRequested) {
    int n = readiness == null ? range.currentTarget() : upcoming(readiness, range);
    return scaleUpRequested && n > 0;
  }

  /**
   * A pool's facts as upstream's: its readiness, its acceptable range (target the nodes not being deleted, the
   * starting nodes its scale-up in progress) and whether it is healthy.
   */
  record PoolHealth(@Nullable Readiness readiness, AcceptableRange range, boolean healthy) {
    /** Why scale-up skips the pool, for {@link ScaleUpPlan#skippedPools()}. */
    String reason() {
      Readiness r = readiness;
      return NOT_READY_REASON + ": " + (r == null ? 0 : r.ready()) + " ready of at least " + range.minNodes()
          + " expected (" + (r == null ? 0 : r.registered()) + " nodes)";
    }
  }

  /**
   * The health of every pool named in {@code pools}, from one pass over {@code nodes} (the nodes of other pools and
   * those without a pool are not read further).
   */
  static Map<String, PoolHealth> byPool(Iterable<String> pools, List<Node> nodes, Instant now,
      AutoscalerOptions options, NodeGroupConfig config) {
    Map<String, int[]> counts = new HashMap<>(); // ready, unready, notStarted, starting, deleting
    for (String p : pools) {
      counts.put(p, new int[5]);
    }
    for (Node n : nodes) {
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      int[] c = pool == null ? null : counts.get(pool);
      if (c == null) {
        continue;
      }
      if (n.metadata().deletionTimestamp() != null) {
        c[4]++;
        continue;
      }
      if (n.isReady()) {
        c[0]++;
      } else if (ClusterHealth.startedRecently(n.metadata().creationTimestamp(), now,
          config.maxNodeStartupTime(pool))) {
        c[2]++;
      } else {
        c[1]++;
      }
      if (SimulatedNodes.isStarting(n)) {
        c[3]++;
      }
    }
    Map<String, PoolHealth> out = new HashMap<>();
    counts.forEach((pool, c) -> out.put(pool, of(c, options)));
    return out;
  }

  /**
   * A pool's health from its counts: {@code c[0]} ready, {@code c[1]} unready, {@code c[2]} not started,
   * {@code c[3]} starting (launched, not Ready yet; counted in the first three too), {@code c[4]} being deleted.
   */
  static PoolHealth of(int[] c, AutoscalerOptions options) {
    int target = c[0] + c[1] + c[2];
    Readiness r = target == 0 && c[4] == 0 ? null : new Readiness(c[0], c[1], c[2], 0);
    AcceptableRange range = acceptableRange(target, 0, c[3], c[4]);
    return new PoolHealth(r, range, healthy(r, range, options));
  }
}
