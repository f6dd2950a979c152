package io.fleetkit.scheduler.plugins.interpodaffinity;

import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.in;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.makePod;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.selector;
import static io.fleetkit.scheduler.plugins.interpodaffinity.Fixtures.term;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * A rough, plugin-only rendition of scheduler_perf's SchedulingPodAntiAffinity (5000 nodes, 1000 init pods in
 * sched-0, measured pods in sched-1, required anti-affinity color=green on kubernetes.io/hostname over both
 * namespaces): PreFilter, Filter until 500 feasible nodes (kube's sampling at 5000 nodes), PreScore, then the pod is
 * bound to the first feasible node. Run with {@code -Dfleetkit.perf=true}; prints pods/s on one thread.
 */
final class InterPodAffinityPerfTest {
  private static final int NODES = 5000;
  private static final int INIT = 1000;
  private static final int MEASURED = 2000;
  private static final int TO_FIND = 500;

  /** A snapshot whose node views are replaced as pods are bound, keeping the affinity lists incrementally. */
  private static final class MutableSnapshot implements Snapshot {
    final List<NodeInfo> nodes = new ArrayList<>();
    final List<List<PodInfo>> pods = new ArrayList<>();
    final List<NodeInfo> withAffinity = new ArrayList<>();
    final List<NodeInfo> withAnti = new ArrayList<>();

    void bind(int i, Pod pod) {
      NodeInfo old = nodes.get(i);
      pods.get(i).add(PodInfos.of(pod.withNodeName(old.name())));
      NodeInfo now = NodeInfos.of(old.node(), pods.get(i));
      nodes.set(i, now);
      replace(withAffinity, old, now, !now.podsWithAffinity().isEmpty());
      replace(withAnti, old, now, !now.podsWithRequiredAntiAffinity().isEmpty());
    }

    private static void replace(List<NodeInfo> list, NodeInfo old, NodeInfo now, boolean member) {
      int at = list.indexOf(old);
      if (at >= 0) {
        list.set(at, now);
      } else if (member) {
        list.add(now);
      }
    }

    @Override public List<NodeInfo> nodes() { return nodes; }
    @Override public List<NodeInfo> nodesWithAffinityPods() { return withAffinity; }
    @Override public List<NodeInfo> nodesWithRequiredAntiAffinityPods() { return withAnti; }
    @Override public @Nullable NodeInfo get(String nodeName) { return null; }
    @Override public int size() { return nodes.size(); }
  }

  private static Pod antiPod(String ns, int i) {
    PodAffinityTerm t = term(selector(in("color", "green")), InterPodAffinityPlugin.LABEL_HOSTNAME,
        List.of("sched-1", "sched-0"), null);
    return makePod().name("p" + i).namespace(ns).label("color", "green").requiredAntiAffinity(t).obj();
  }

  @Test
  @EnabledIfSystemProperty(named = "fleetkit.perf", matches = "true")
  void schedulingPodAntiAffinity_5000Nodes_throughput() {
    MutableSnapshot snap = new MutableSnapshot();
    for (int i = 0; i < NODES; i++) {
      Node n = Node.builder().name("node-" + i)
          .labels(Map.of(InterPodAffinityPlugin.LABEL_HOSTNAME, "node-" + i, "topology.kubernetes.io/zone", "zone1"))
          .allocatable(ResourceList.ofCpuMemory(4000, 32L << 30)).build();
      snap.nodes.add(NodeInfos.of(n, List.of()));
      snap.pods.add(new ArrayList<>());
    }
    InterPodAffinityPlugin p = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> snap);
    int next = 0;
    for (int i = 0; i < INIT; i++) {
      snap.bind(next, antiPod("sched-0", i));
      next = (next + 7) % NODES;
    }
    int[] start = {0};
    long best = Long.MAX_VALUE;
    for (int round = 0; round < 3; round++) {
      MutableSnapshot s = copy(snap);
      InterPodAffinityPlugin plugin = new InterPodAffinityPlugin(InterPodAffinityArgs.DEFAULT, () -> s);
      long t0 = CPU.getCurrentThreadCpuTime();
      for (int i = 0; i < MEASURED; i++) {
        scheduleOne(plugin, s, antiPod("sched-1", INIT + i), start);
      }
      best = Math.min(best, CPU.getCurrentThreadCpuTime() - t0);
      System.out.printf("prefilter %d us/pod, filter %d us/pod (%d nodes), prescore %d us/pod, bind %d us/pod%n",
          T[0] / 1000 / MEASURED, T[1] / 1000 / MEASURED, P[0] / MEASURED, T[2] / 1000 / MEASURED,
          T[3] / 1000 / MEASURED);
      java.util.Arrays.fill(T, 0);
      P[0] = 0;
    }
    List<Pod> all = new ArrayList<>();
    for (List<PodInfo> l : snap.pods) {
      for (PodInfo x : l) {
        all.add(x.pod());
      }
    }
    for (int r = 0; r < 5; r++) {
      long c0 = CPU.getCurrentThreadCpuTime();
      int k = 0;
      for (int rep = 0; rep < 100; rep++) {
        for (Pod x : all) {
          k += PodTerms.of(x).requiredAntiAffinity.size();
        }
      }
      System.out.printf("PodTerms.of: %d ns/lookup (%d)%n", (CPU.getCurrentThreadCpuTime() - c0) / (100L * all.size()), k);
    }
    double podsPerSec = MEASURED / (best / 1e9);
    System.out.printf("InterPodAffinity SchedulingPodAntiAffinity 5000 nodes: %.0f pods/s (one thread, CPU time)%n", podsPerSec);
    assertThat(podsPerSec).isPositive();
    assertThat(p.name()).isEqualTo(InterPodAffinityPlugin.NAME);
  }

  private static MutableSnapshot copy(MutableSnapshot from) {
    MutableSnapshot s = new MutableSnapshot();
    s.nodes.addAll(from.nodes);
    for (List<PodInfo> l : from.pods) {
      s.pods.add(new ArrayList<>(l));
    }
    s.withAffinity.addAll(from.withAffinity);
    s.withAnti.addAll(from.withAnti);
    return s;
  }

  private static void scheduleOne(InterPodAffinityPlugin p, MutableSnapshot s, Pod pod, int[] start) {
    CycleState state = new TestCycleState();
    PodInfo pi = PodInfos.of(pod);
    long t0 = CPU.getCurrentThreadCpuTime();
    Status pre = p.preFilter(state, pi, s).status();
    long t1 = CPU.getCurrentThreadCpuTime();
    T[0] += t1 - t0;
    assertThat(pre.isSuccess()).isTrue();
    int found = 0;
    int first = -1;
    int n = s.nodes.size();
    int i = start[0];
    int processed = 0;
    for (; processed < n && found < TO_FIND; processed++, i = (i + 1) % n) {
      if (p.filter(state, pi, s.nodes.get(i)).isSuccess()) {
        if (first < 0) {
          first = i;
        }
        found++;
      }
    }
    start[0] = i;
    long t2 = CPU.getCurrentThreadCpuTime();
    T[1] += t2 - t1;
    Status ps = p.preScore(state, pi, List.of());
    long t3 = CPU.getCurrentThreadCpuTime();
    T[2] += t3 - t2;
    P[0] += processed;
    assertThat(ps.isSkip()).isTrue();
    assertThat(first).isNotNegative();
    s.bind(first, pod);
    T[3] += CPU.getCurrentThreadCpuTime() - t3;
  }

  private static final java.lang.management.ThreadMXBean CPU = java.lang.management.ManagementFactory.getThreadMXBean();
  static final long[] T = new long[4];
  static final long[] P = new long[1];
}
