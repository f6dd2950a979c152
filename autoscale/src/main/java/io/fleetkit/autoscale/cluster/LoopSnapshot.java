package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.resource.dra.ResourceClaim;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a loop's scale-up left in the cluster snapshot for the scale-down planner, which upstream runs on the snapshot
 * scale-up's filter placed pods in.
 *
 * @param pods the pending pods left on existing nodes, by node, each node's in the order they went there: those
 *     nominated to the node (upstream's {@code SetClusterState} puts a pod waiting for preemption on its
 *     {@code status.nominatedNodeName}), then those scale-up's filter placed; they are on those nodes in the drain
 *     simulations and in the utilization
 * @param placedClaims the ResourceClaims of the pending pods the filter placed, as its placements left them (allocated
 *     and reserved for those pods, as upstream's {@code TrySchedulePods} allocates them in the loop's DRA snapshot,
 *     which scale-down forks)
 * @param placedClaimPods where the filter placed the pending pods with ResourceClaims, in placement order
 * @param nominated the pods waiting for preemption held on their nominated node, by node (those of {@code pods}
 *     before the filter's): on a node being deleted they are among the pods the planner places elsewhere
 */
record LoopSnapshot(Map<String, List<PodInfo>> pods, List<ResourceClaim> placedClaims,
    List<PlacedPod> placedClaimPods, Map<String, List<Pod>> nominated) {

  /** No pending pod on any node. */
  static final LoopSnapshot EMPTY = new LoopSnapshot(Map.of(), List.of(), List.of(), Map.of());

  LoopSnapshot {
    Objects.requireNonNull(pods, "pods");
    Objects.requireNonNull(placedClaims, "placedClaims");
    Objects.requireNonNull(placedClaimPods, "placedClaimPods");
    Objects.requireNonNull(nominated, "nominated");
  }

  /** A pending pod the filter placed on a node, for the claims it holds there. */
  record PlacedPod(String node, Pod pod) {}
}
