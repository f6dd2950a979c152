package io.fleetkit.benchmarks.generator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import java.util.ArrayList;
import java.util.List;

/**
 * One scheduler_perf workload at a given cluster size: the nodes, the pods placed before measuring ("init") and
 * the measured pods, with kube's CI floor in pods/s for the 5000-node class (0 when kube publishes none).
 *
 * <p>Counts follow kubernetes/kubernetes test/integration/scheduler_perf/*&#47;performance-config.yaml for 5000
 * nodes; at 500 nodes every pod count is divided by ten, as scheduler_perf's 500Nodes variants do.
 */
public record PerfCase(String name, List<Node> nodes, List<Pod> initPods, List<Pod> measuredPods, int kubeFloor) {

  /** FleetKit's scheduler performance workloads, by scheduler_perf test case name. */
  public static final List<String> NAMES = List.of("SchedulingBasic", "SchedulingPodAntiAffinity",
      "SchedulingPodAffinity", "SchedulingNodeAffinity", "TopologySpreading", "PreferredTopologySpreading",
      "PreemptionBasic", "Unschedulable");

  public static PerfCase of(String name, int nodeCount) {
    int scale = nodeCount >= 5000 ? 1 : Math.max(1, 5000 / nodeCount);
    switch (name) {
      case "SchedulingBasic":
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of()),
            PerfWorkloads.defaultPods("sched-0", "init-", 1000 / scale),
            PerfWorkloads.defaultPods("sched-1", "pod-", 10000 / scale), 680);
      case "SchedulingPodAntiAffinity":
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of()),
            PerfWorkloads.antiAffinityPods("sched-0", "init-", 1000 / scale),
            PerfWorkloads.antiAffinityPods("sched-1", "pod-", 2000 / scale), 60);
      case "SchedulingPodAffinity":
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of("zone1")),
            PerfWorkloads.affinityPods("sched-0", "init-", 5000 / scale),
            PerfWorkloads.affinityPods("sched-1", "pod-", 5000 / scale), 35);
      case "SchedulingNodeAffinity":
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of("zone1")),
            PerfWorkloads.nodeAffinityPods("sched-0", "init-", 5000 / scale),
            PerfWorkloads.nodeAffinityPods("sched-1", "pod-", 10000 / scale), 220);
      case "TopologySpreading":
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of("moon-1", "moon-2", "moon-3")),
            PerfWorkloads.defaultPods("sched-0", "init-", 5000 / scale),
            PerfWorkloads.spreadingPods("sched-1", "pod-", 5000 / scale, true), 460);
      case "PreferredTopologySpreading":
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of("moon-1", "moon-2", "moon-3")),
            PerfWorkloads.defaultPods("sched-0", "init-", 5000 / scale),
            PerfWorkloads.spreadingPods("sched-1", "pod-", 5000 / scale, false), 340);
      case "PreemptionBasic": {
        // scheduler_perf runs this at 1000 nodes (its 5000-node variant is commented out upstream): 4 low-priority
        // pods fill each node, then every high-priority pod must preempt three of them.
        int nodes = nodeCount >= 5000 ? 1000 : nodeCount / 5;
        return new PerfCase(name, PerfWorkloads.nodes(nodes, List.of()),
            PerfWorkloads.lowPriorityPods("sched-0", "low-", nodes * 4),
            PerfWorkloads.highPriorityPods("sched-1", "high-", nodes), 0);
      }
      case "Unschedulable": {
        // 10000 default pods with an unschedulable 9-CPU priority-10 pod injected every 200 ms upstream; offline we
        // inject one every 500 pods.
        List<Pod> measured = new ArrayList<>();
        List<Pod> plain = PerfWorkloads.defaultPods("sched-1", "pod-", 10000 / scale);
        for (int i = 0; i < plain.size(); i++) {
          if (i % 500 == 0) {
            measured.add(PerfWorkloads.largeCpuPod("sched-1", "large-" + i));
          }
          measured.add(plain.get(i));
        }
        return new PerfCase(name, PerfWorkloads.nodes(nodeCount, List.of()),
            PerfWorkloads.defaultPods("sched-0", "init-", 100 / scale), measured, 590);
      }
      default:
        throw new IllegalArgumentException("unknown workload " + name + "; known: " + NAMES);
    }
  }
}
