package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.ClusterAutoscalerMetrics.*;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Records {@link ClusterAutoscalerMetrics} after each loop of the {@link ClusterAutoscaler}, which holds one only when
 * it was given a registry. A gauge series whose label value disappears (a pool deleted, an unremovable reason gone)
 * is set to 0 rather than left at its last value. Confined to the autoscaler's lock.
 */
final class AutoscalerInstruments {
  private final MetricsRegistry metrics;
  private final AutoscalerOptions options;
  private final Set<String> seenPools = new HashSet<>();
  private final Set<String> seenReasons = new HashSet<>();
  private final Set<String> seenGpuPools = new HashSet<>();

  AutoscalerInstruments(MetricsRegistry metrics, AutoscalerOptions options) {
    this.metrics = metrics;
    this.options = options;
    metrics.gauge(CLUSTER_SAFE_TO_AUTOSCALE).set(1);
    metrics.counter(SCALED_UP_NODES).increment(0);
    for (String r : List.of(EMPTY, UNDERUTILIZED, UNREADY)) {
      metrics.counter(SCALED_DOWN_NODES, r).increment(0);
    }
    metrics.counter(FAILED_SCALE_UPS, TIMEOUT).increment(0);
  }

  /** What one loop did and took, for {@link #loop}. */
  record Loop(Instant now, long mainNanos, long scaleUpNanos, long scaleDownNanos, long softTaintNanos,
      boolean scaleDownRan, boolean cooldown, int maxNodesTotal, List<Node> nodesBefore, Set<String> deletedEmpty, int evictedPods) {}

  /**
   * The nodes deleted and pods evicted by scale-down, in a loop or between loops
   * ({@link ClusterAutoscaler#advanceDeletions()}).
   *
   * @param byName the nodes as they were before they were deleted, by name
   * @param deletedEmpty the nodes of {@code deleted} whose deletion started while they were empty
   */
  void deletions(Map<String, Node> byName, List<String> deleted, Set<String> deletedEmpty, int evictedPods) {
    for (String n : deleted) {
      // upstream's nodeScaleDownReason: an unready node's reason is unready, drained or not
      Node before = byName.get(n);
      String reason = before != null && !before.isReady() ? UNREADY
          : deletedEmpty.contains(n) ? EMPTY : UNDERUTILIZED;
      metrics.counter(SCALED_DOWN_NODES, reason).increment();
      gpu(before, g -> metrics.counter(SCALED_DOWN_GPU_NODES, reason, ResourceNames.NVIDIA_GPU, g).increment());
    }
    if (evictedPods > 0) {
      metrics.counter(EVICTED_PODS, "succeeded").increment(evictedPods);
    }
  }

  void loop(Loop l, LoopResult r, Map<String, NodePool> pools, List<Node> nodes, List<Pod> pods) {
    double unix = l.now().getEpochSecond() + l.now().getNano() / 1e9;
    metrics.histogram(FUNCTION_DURATION, MAIN).observeNanos(l.mainNanos());
    metrics.gauge(LAST_ACTIVITY, MAIN).set(unix);
    // a loop halted by too many unready nodes (upstream's IsClusterHealthy) runs neither scale-up nor scale-down
    metrics.gauge(CLUSTER_SAFE_TO_AUTOSCALE).set(r.safeToAutoscale() ? 1 : 0);
    if (r.safeToAutoscale()) {
      metrics.histogram(FUNCTION_DURATION, SCALE_UP).observeNanos(l.scaleUpNanos());
      metrics.gauge(LAST_ACTIVITY, SCALE_UP).set(unix);
    }
    if (l.softTaintNanos() >= 0) {
      metrics.histogram(FUNCTION_DURATION, SCALE_DOWN_SOFT_TAINT_UNNEEDED).observeNanos(l.softTaintNanos());
    }
    if (l.scaleDownRan()) {
      metrics.histogram(FUNCTION_DURATION, SCALE_DOWN).observeNanos(l.scaleDownNanos());
      metrics.gauge(LAST_ACTIVITY, SCALE_DOWN).set(unix);
    }
    metrics.gauge(SCALE_DOWN_IN_COOLDOWN).set(l.cooldown() ? 1 : 0);
    metrics.gauge(MAX_NODES_COUNT).set(l.maxNodesTotal());

    // operations
    Map<String, Node> byName = new HashMap<>();
    for (Node n : l.nodesBefore()) {
      byName.put(n.name(), n);
    }
    for (Node n : nodes) {
      byName.put(n.name(), n);
    }
    metrics.counter(SCALED_UP_NODES).increment(r.launchedNodes().size());
    for (String n : r.launchedNodes()) {
      gpu(byName.get(n), g -> metrics.counter(SCALED_UP_GPU_NODES, ResourceNames.NVIDIA_GPU, g).increment());
    }
    metrics.counter(FAILED_SCALE_UPS, TIMEOUT).increment(r.timedOutNodes().size());
    // upstream's RegisterFailedScaleUp: once per pool and error code, the code as the reason; a GPU pool's also by
    // its template's GPU
    for (ScaleUpFailure f : r.scaleUpFailures()) {
      String reason = f.error().errorCode();
      metrics.counter(FAILED_SCALE_UPS, reason).increment();
      NodePool p = pools.get(f.pool());
      gpu(p == null ? null : ClusterAutoscaler.templateNode(p, "template-" + f.pool()),
          g -> metrics.counter(FAILED_GPU_SCALE_UPS, reason, ResourceNames.NVIDIA_GPU, g).increment());
    }
    for (String n : r.timedOutNodes()) {
      gpu(byName.get(n), g -> metrics.counter(FAILED_GPU_SCALE_UPS, TIMEOUT, ResourceNames.NVIDIA_GPU, g)
          .increment());
    }
    deletions(byName, r.deletedNodes(), l.deletedEmpty(), l.evictedPods());
    if (l.scaleDownRan()) {
      metrics.gauge(UNNEEDED_NODES_COUNT).set(r.unneededNodes().size());
      Map<String, Integer> reasons = new HashMap<>();
      r.unremovableNodes().values().forEach(v -> reasons.merge(v, 1, Integer::sum));
      seenReasons.addAll(reasons.keySet());
      for (String reason : seenReasons) {
        metrics.gauge(UNREMOVABLE_NODES_COUNT, reason).set(reasons.getOrDefault(reason, 0));
      }
    }
    if (r.scaleUp() != null) {
      metrics.gauge(UNSCHEDULABLE_PODS_COUNT, "unschedulable").set(r.scaleUp().unschedulablePods().size());
    }

    // cluster state after the loop
    int ready = 0;
    int unready = 0;
    int starting = 0;
    List<Node> present = new java.util.ArrayList<>(nodes.size());
    Map<String, Integer> poolSizes = new HashMap<>();
    for (Node n : nodes) {
      if (n.metadata().deletionTimestamp() != null) {
        continue;
      }
      present.add(n);
      if (SimulatedNodes.isStarting(n)) {
        starting++;
      } else if (n.isReady()) {
        ready++;
      } else {
        unready++;
      }
      String pool = n.metadata().labels().get(NodePool.POOL_LABEL);
      if (pool != null) {
        poolSizes.merge(pool, 1, Integer::sum);
      }
    }
    metrics.gauge(NODES_COUNT, READY).set(ready);
    metrics.gauge(NODES_COUNT, UNREADY).set(unready);
    metrics.gauge(NODES_COUNT, NOT_STARTED).set(starting);
    metrics.gauge(NODES_COUNT, "unregistered").set(0);
    metrics.gauge(NODES_COUNT, "longUnregistered").set(0);
    // upstream's calculateCoresMemoryTotal: whole cores and bytes, the nodes being deleted left out
    long[] total = ClusterResourceLimits.coresMemoryTotal(present, l.now());
    metrics.gauge(CLUSTER_CPU_CURRENT_CORES).set(total[0]);
    metrics.gauge(CLUSTER_MEMORY_CURRENT_BYTES).set(total[1]);
    metrics.gauge(CPU_LIMITS_CORES, "minimum").set(options.minCoresTotal());
    metrics.gauge(CPU_LIMITS_CORES, "maximum").set(options.maxCoresTotal());
    metrics.gauge(MEMORY_LIMITS_BYTES, "minimum").set(options.minMemoryTotal());
    metrics.gauge(MEMORY_LIMITS_BYTES, "maximum").set(options.maxMemoryTotal());
    metrics.gauge(NODE_GROUPS_COUNT, "autoscaled").set(pools.size());
    metrics.gauge(NODE_GROUPS_COUNT, "autoprovisioned").set(0);
    for (String gone : seenPools) {
      if (!pools.containsKey(gone)) {
        metrics.gauge(NODE_GROUP_MIN_COUNT, gone).set(0);
        metrics.gauge(NODE_GROUP_MAX_COUNT, gone).set(0);
        metrics.gauge(NODE_GROUP_TARGET_COUNT, gone).set(0);
        metrics.gauge(NODE_GROUP_HEALTHINESS, gone).set(0);
      }
    }
    // upstream's metrics_autoscaling_status_processor: IsNodeGroupHealthy per group, after the loop
    Map<String, NodeGroupHealth.PoolHealth> health = NodeGroupHealth.byPool(pools.keySet(), nodes, l.now(), options,
        NodeGroupConfig.of(options, pools.values()));
    for (NodePool p : pools.values()) {
      String name = p.metadata().name();
      seenPools.add(name);
      metrics.gauge(NODE_GROUP_MIN_COUNT, name).set(p.spec().minSize());
      metrics.gauge(NODE_GROUP_MAX_COUNT, name).set(p.spec().maxSize());
      metrics.gauge(NODE_GROUP_TARGET_COUNT, name).set(poolSizes.getOrDefault(name, 0));
      metrics.gauge(NODE_GROUP_HEALTHINESS, name).set(health.get(name).healthy() ? 1 : 0);
    }
    Map<String, GpuPoolUsage> gpus = GpuPoolUsage.byPool(nodes, pods);
    for (String gone : seenGpuPools) {
      if (!gpus.containsKey(gone)) {
        metrics.gauge(GPU_ALLOCATED_RATIO, gone).set(0);
        metrics.gauge(GPU_FRAGMENTATION_RATIO, gone).set(0);
      }
    }
    gpus.forEach((pool, u) -> {
      seenGpuPools.add(pool);
      metrics.gauge(GPU_ALLOCATED_RATIO, pool).set(u.allocatedRatio());
      metrics.gauge(GPU_FRAGMENTATION_RATIO, pool).set(u.fragmentationRatio());
    });
  }

  /** Calls {@code then} with the GPU model of a GPU node ({@code ""} when its devices are unknown). */
  private static void gpu(Node n, java.util.function.Consumer<String> then) {
    if (n == null || GpuRequests.whole(n.status().allocatable()) == 0) {
      return;
    }
    List<GpuDevice> devices = n.status().gpus();
    then.accept(devices.isEmpty() ? "" : devices.get(0).model());
  }
}
