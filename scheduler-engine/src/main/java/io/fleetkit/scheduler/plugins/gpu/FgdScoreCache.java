package io.fleetkit.scheduler.plugins.gpu;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jspecify.annotations.Nullable;

/**
 * FGD scores per node and pod shape, kept while the node's CPU left and free GPU amounts are unchanged: most nodes do
 * not change between two pods, and pods come in few shapes, so most scores are looked up instead of recomputed.
 * Shapes get small ids (the last pod's id is remembered, as hosts score one pod on every node in a row), and each
 * node's entry holds its scores in an array indexed by shape id. Thread-safe; one per scorer instance.
 */
final class FgdScoreCache {
  private static final long ABSENT = Long.MIN_VALUE;

  private record Shape(long cpu, int whole, int milli, List<String> models) {}

  private record Entry(long cpuLeft, int[] free, AtomicLongArray scores) {}

  private record LastPod(GpuPod pod, int shape) {}

  private final GpuWorkload workload;
  private final Map<String, Entry> byNode = new ConcurrentHashMap<>();
  private final Map<Shape, Integer> shapeIds = new ConcurrentHashMap<>();
  private final AtomicInteger nextShapeId = new AtomicInteger();
  private volatile @Nullable LastPod last;

  FgdScoreCache(GpuWorkload workload) {
    this.workload = workload;
  }

  private int shapeId(GpuPod pod) {
    LastPod l = last;
    if (l != null && l.pod() == pod) {
      return l.shape();
    }
    GpuDemand d = pod.demand();
    int id = shapeIds.computeIfAbsent(new Shape(pod.milliCpu(), d.whole(), d.milli(), d.models()),
        k -> nextShapeId.getAndIncrement());
    last = new LastPod(pod, id);
    return id;
  }

  long score(GpuPod pod, NodeGpu n) {
    int s = shapeId(pod);
    Entry e = byNode.get(n.name());
    if (e == null || e.cpuLeft() != n.cpuLeft() || !Arrays.equals(e.free(), n.free())
        || e.scores().length() <= s) {
      AtomicLongArray scores = new AtomicLongArray(Math.max(8, Integer.highestOneBit(s) * 2));
      for (int i = 0; i < scores.length(); i++) {
        scores.set(i, ABSENT);
      }
      if (e != null && e.cpuLeft() == n.cpuLeft() && Arrays.equals(e.free(), n.free())) {
        for (int i = 0; i < e.scores().length(); i++) {
          scores.set(i, e.scores().get(i));
        }
      }
      e = new Entry(n.cpuLeft(), n.free().clone(), scores);
      byNode.put(n.name(), e);
    }
    long v = e.scores().get(s);
    if (v == ABSENT) {
      v = Fgd.score(workload, n, pod.milliCpu(), pod.demand(), null);
      e.scores().set(s, v);
    }
    return v;
  }
}
