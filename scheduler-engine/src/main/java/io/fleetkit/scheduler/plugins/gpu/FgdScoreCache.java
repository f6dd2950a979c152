package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.scheduler.PodInfo;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * FGD scores per node and pod shape, kept while the node's CPU left and free GPU amounts are unchanged: most nodes do
 * not change between two pods, and pods come in few shapes, so most scores are looked up instead of recomputed.
 * Thread-safe; one per plugin instance.
 */
final class FgdScoreCache {
  private record Shape(long cpu, int whole, int milli, List<String> models) {}

  private record Entry(long cpuLeft, int[] free, Map<Shape, Long> scores) {}

  private final GpuWorkload workload;
  private final Map<String, Entry> byNode = new ConcurrentHashMap<>();

  FgdScoreCache(GpuWorkload workload) {
    this.workload = workload;
  }

  long score(String nodeName, NodeGpu n, PodInfo pod, GpuDemand d) {
    long cpu = NodeGpu.cpu(pod);
    Entry e = byNode.get(nodeName);
    if (e == null || e.cpuLeft() != n.cpuLeft() || !Arrays.equals(e.free(), n.free())) {
      e = new Entry(n.cpuLeft(), n.free().clone(), new ConcurrentHashMap<>());
      byNode.put(nodeName, e);
    }
    Shape s = new Shape(cpu, d.whole(), d.milli(), d.models());
    Long v = e.scores().get(s);
    if (v == null) {
      v = Fgd.score(workload, n, cpu, d, null);
      e.scores().put(s, v);
    }
    return v;
  }
}
