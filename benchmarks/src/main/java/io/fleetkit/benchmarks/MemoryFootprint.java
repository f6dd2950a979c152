package io.fleetkit.benchmarks;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.benchmarks.generator.PerfWorkloads;
import io.fleetkit.scheduler.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Heap retained by the scheduler's cache per node and per pod: builds a 5,000-node cluster, then binds 50,000
 * scheduler_perf default pods, measuring the live heap after full GCs at each step. Figures include the node and
 * pod records themselves (the cache holds them), so they are what an embedder pays per object.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar io.fleetkit.benchmarks.MemoryFootprint</pre>
 */
public final class MemoryFootprint {
  private MemoryFootprint() {}

  /** Retained bytes per cached node and per cached pod. */
  public record Footprint(double bytesPerNode, double bytesPerPod) {}

  public static Footprint measure(int nodeCount, int podCount) {
    long base = usedAfterGc();
    List<Node> nodes = PerfWorkloads.nodes(nodeCount, PerfWorkloads.zones(3));
    Scheduler scheduler = Scheduler.builder().parallelism(1).build();
    for (Node n : nodes) {
      scheduler.addNode(n);
    }
    nodes = null;
    long withNodes = usedAfterGc();
    List<Pod> pods = new ArrayList<>(podCount);
    int i = 0;
    for (Pod p : PerfWorkloads.defaultPods("default", "pod-", podCount)) {
      pods.add(p.toBuilder().nodeName("node-" + (i++ % nodeCount)).build());
    }
    for (Pod p : pods) {
      scheduler.addPod(p);
    }
    pods = null;
    long withPods = usedAfterGc();
    Footprint f = new Footprint((withNodes - base) / (double) nodeCount, (withPods - withNodes) / (double) podCount);
    scheduler.close();
    return f;
  }

  private static long usedAfterGc() {
    Runtime rt = Runtime.getRuntime();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      used = Math.min(used, rt.totalMemory() - rt.freeMemory());
    }
    return used;
  }

  public static void main(String[] args) {
    measure(500, 5_000); // warm up class loading
    Footprint f = measure(5_000, 50_000);
    System.out.printf(Locale.ROOT, "scheduler cache: %.0f bytes per node, %.0f bytes per pod (5,000 nodes, 50,000"
        + " bound pods; node and pod records included)%n", f.bytesPerNode(), f.bytesPerPod());
  }
}
