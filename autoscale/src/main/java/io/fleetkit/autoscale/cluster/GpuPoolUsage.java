package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the GPUs of one node pool are used: the figures behind {@code fleetkit_gpu_allocated_ratio} and
 * {@code fleetkit_gpu_fragmentation_ratio}.
 *
 * <p>Each device holds 1000 thousandths. A bound, non-terminal pod uses a whole device per {@code nvidia.com/gpu} and
 * {@code fleetkit.io/gpu-milli} thousandths of one device, on the devices named in its {@code fleetkit.io/gpu-ids}
 * annotation; a pod without that annotation (bound by another scheduler) is put on the node's devices in order:
 * whole devices on unused ones, a share on the first partly used device with room, else on an unused one. A node's
 * devices are its {@code status.gpus}, or, when those are unknown, as many anonymous devices as its allocatable
 * {@code nvidia.com/gpu}.
 *
 * @param devices the pool's GPU devices
 * @param allocatedMilli thousandths allocated, over all devices
 * @param fragmentedMilli free thousandths on partly used devices (no whole-GPU pod can use them)
 */
public record GpuPoolUsage(int devices, long allocatedMilli, long fragmentedMilli) {
  /** Allocated over total capacity, 0 to 1 (0 for a pool without GPUs). */
  public double allocatedRatio() {
    return devices == 0 ? 0 : (double) allocatedMilli / ((long) devices * GpuRequests.MILLI_PER_DEVICE);
  }

  /** Free capacity on partly used devices over all free capacity, 0 to 1 (0 when nothing is free). */
  public double fragmentationRatio() {
    long free = (long) devices * GpuRequests.MILLI_PER_DEVICE - allocatedMilli;
    return free <= 0 ? 0 : (double) fragmentedMilli / free;
  }

  /**
   * The usage per node pool ({@link NodePool#POOL_LABEL}) of the GPU nodes among {@code nodes}; nodes without the
   * label count under the pool {@code ""}. Pools without GPU nodes are absent. Sorted by pool name.
   */
  public static Map<String, GpuPoolUsage> byPool(List<Node> nodes, List<Pod> pods) {
    Map<String, List<Pod>> podsByNode = new HashMap<>();
    for (Pod p : pods) {
      if (p.isBound() && !p.isTerminal()) {
        podsByNode.computeIfAbsent(p.spec().nodeName(), k -> new ArrayList<>()).add(p);
      }
    }
    Map<String, long[]> sums = new TreeMap<>();
    for (Node n : nodes) {
      Map<String, Long> used = ledger(n, podsByNode.getOrDefault(n.name(), List.of()));
      if (used.isEmpty()) {
        continue;
      }
      long[] s = sums.computeIfAbsent(n.metadata().labels().getOrDefault(NodePool.POOL_LABEL, ""),
          k -> new long[3]);
      for (long u : used.values()) {
        long capped = Math.min(u, GpuRequests.MILLI_PER_DEVICE);
        s[0]++;
        s[1] += capped;
        if (capped > 0 && capped < GpuRequests.MILLI_PER_DEVICE) {
          s[2] += GpuRequests.MILLI_PER_DEVICE - capped;
        }
      }
    }
    Map<String, GpuPoolUsage> out = new LinkedHashMap<>();
    sums.forEach((pool, s) -> out.put(pool, new GpuPoolUsage((int) s[0], s[1], s[2])));
    return out;
  }

  /** Thousandths used per device of {@code node}, in device order; empty for a node without GPUs. */
  private static Map<String, Long> ledger(Node node, List<Pod> pods) {
    Map<String, Long> used = new LinkedHashMap<>();
    List<GpuDevice> devices = node.status().gpus();
    if (!devices.isEmpty()) {
      for (GpuDevice d : devices) {
        used.put(d.id(), 0L);
      }
    } else {
      long count = GpuRequests.whole(node.status().allocatable());
      for (int i = 0; i < count; i++) {
        used.put("#" + i, 0L);
      }
    }
    if (used.isEmpty()) {
      return used;
    }
    List<Pod> unplaced = new ArrayList<>();
    for (Pod p : pods) {
      long whole = GpuRequests.whole(p.effectiveRequests());
      long milli = GpuRequests.milli(p.effectiveRequests());
      if (whole == 0 && milli == 0) {
        continue;
      }
      List<String> ids = GpuRequests.assignedIds(p.metadata());
      if (ids.isEmpty() || !used.keySet().containsAll(ids)) {
        unplaced.add(p);
        continue;
      }
      for (String id : ids) {
        used.merge(id, whole > 0 ? GpuRequests.MILLI_PER_DEVICE : milli, Long::sum);
      }
    }
    for (Pod p : unplaced) {
      long whole = GpuRequests.whole(p.effectiveRequests());
      long milli = GpuRequests.milli(p.effectiveRequests());
      for (long i = 0; i < whole; i++) {
        put(used, GpuRequests.MILLI_PER_DEVICE, false);
      }
      if (milli > 0) {
        put(used, milli, true);
      }
    }
    return used;
  }

  /** Puts {@code milli} on a partly used device with room (when {@code share}), else on an unused one. */
  private static void put(Map<String, Long> used, long milli, boolean share) {
    if (share) {
      for (Map.Entry<String, Long> e : used.entrySet()) {
        long u = e.getValue();
        if (u > 0 && u + milli <= GpuRequests.MILLI_PER_DEVICE) {
          e.setValue(u + milli);
          return;
        }
      }
    }
    for (Map.Entry<String, Long> e : used.entrySet()) {
      if (e.getValue() == 0) {
        e.setValue(milli);
        return;
      }
    }
    // over-committed node (e.g. a stale pod list): charge the first device; ratios cap each device at 1000
    Map.Entry<String, Long> first = used.entrySet().iterator().next();
    first.setValue(first.getValue() + milli);
  }
}
