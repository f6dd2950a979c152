package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitArgs;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.noderesources.ResourceSpec;
import io.fleetkit.scheduler.plugins.noderesources.ScoringStrategy;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Score with {@link CachedScoreSum} gives what scoring every plugin on its own gives: two frameworks of the same
 * profile, one with the kept sums and one without ({@link Framework#cacheScoreSums}), run the same random cycles
 * (pods of a few shapes, best-effort ones included; rows replaced and the table grown between cycles; random subsets
 * of positions in random order) and must return equal statuses and, on success, equal totals. The profile mixes
 * summed plugins (NodeResourcesFit, BalancedAllocation, a MostAllocated Fit), a normalising one (TaintToleration, on
 * nodes with PreferNoSchedule taints) and a keyed plugin that now and then gives a score out of range or throws, so
 * that the fallback to plugin-by-plugin scoring and its errors are compared too.
 */
final class CachedScoreSumPropertiesTest {
  private static final String GPU = "nvidia.com/gpu";

  @Property(tries = 200)
  void summedScores_equalPluginByPluginScores(@ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int nodeCount,
      @ForAll @IntRange(min = 1, max = 7) int shapes, @ForAll boolean withFaulty) {
    Random random = new Random(seed);
    List<Pod> podShapes = new ArrayList<>();
    for (int s = 0; s < shapes; s++) {
      podShapes.add(pod("shape" + s, random.nextInt(4) * 500L, random.nextInt(4) * 256L, random.nextInt(3)));
    }
    Framework summed = framework(withFaulty);
    Framework plain = framework(withFaulty);
    plain.cacheScoreSums(false);
    ScoredViews nodes = new ScoredViews();
    for (int i = 0; i < nodeCount; i++) {
      nodes.set(i, randomView("n" + i, random));
    }
    NodeTable table = nodes.table;
    int succeeded = 0;
    for (int cycle = 0; cycle < 40; cycle++) {
      int changes = random.nextInt(3);
      for (int c = 0; c < changes; c++) {
        int i = random.nextInt(nodes.size());
        nodes.set(i, randomView("n" + i, random));
      }
      if (random.nextInt(10) == 0) {
        int i = nodes.size();
        nodes.set(i, randomView("n" + i, random));
      }
      PodInfo pod = EnginePodInfo.of(podShapes.get(random.nextInt(podShapes.size())));
      ScoredViews.Feasible f = nodes.pick(random);
      int[] indices = f.indices();
      List<NodeInfo> feasible = f.views();
      int k = indices.length;
      long[] expected = new long[k];
      long[] actual = new long[k];
      Arrays.fill(actual, -7);
      Status e = run(plain, pod, table, indices, feasible, expected);
      Status a = run(summed, pod, table, indices, feasible, actual);
      assertThat(a).as("cycle %d, %s on %s", cycle, pod.key(), feasible).isEqualTo(e);
      if (e.isSuccess()) {
        assertThat(actual).as("cycle %d, %s on %s", cycle, pod.key(), feasible).containsExactly(expected);
        succeeded++;
      }
    }
    assertThat(succeeded).as("cycles that scored").isGreaterThan(withFaulty ? -1 : 0);
  }

  private static Status run(Framework fw, PodInfo pod, NodeTable table, int[] indices, List<NodeInfo> feasible,
      long[] totals) {
    ArrayCycleState state = new ArrayCycleState();
    Status pre = fw.runPreScore(state, pod, feasible);
    if (!pre.isSuccess()) {
      return pre;
    }
    return fw.runScore(state, pod, table, indices, feasible, indices.length, totals, new ParallelRunner(1), 4096);
  }

  private static Framework framework(boolean withFaulty) {
    SchedulerProfile.Builder profile = SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .plugin(TaintTolerationPlugin.NAME, 3).plugin(NodeResourcesFitPlugin.NAME, 1)
        .plugin("MostAllocated", 2);
    if (withFaulty) {
      profile.plugin("Faulty", 1);
    }
    profile.plugin(NodeResourcesBalancedAllocationPlugin.NAME, 1);
    PluginRegistry reg = PluginRegistry.defaults()
        .with("MostAllocated", h -> new RenamedFit(new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(
            ScoringStrategy.mostAllocated(List.of(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 1),
                ResourceSpec.of(GPU, 2)))))))
        .with("Faulty", h -> new Faulty());
    return new Framework(profile.build(), reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
  }

  /** NodeResourcesFit under another name (a profile names each plugin once). */
  private static final class RenamedFit implements TableScore, PreScorePlugin {
    private final NodeResourcesFitPlugin inner;

    RenamedFit(NodeResourcesFitPlugin inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return "MostAllocated";
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> nodes) {
      return inner.preScore(state, pod, nodes);
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      return inner.score(state, pod, node);
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
      return inner.score(state, pod, table, node);
    }

    @Override
    public void scoreAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, long[] out) {
      inner.scoreAll(state, pod, table, nodes, from, to, out);
    }

    @Override
    public long[] scoreKey(CycleState state, PodInfo pod) {
      return inner.scoreKey(state, pod);
    }
  }

  /**
   * A keyed plugin whose score depends on the node's allocatable cpu and the pod's cpu request only (as its key says),
   * out of range (101) or throwing for a few combinations.
   */
  private static final class Faulty implements TableScore {
    @Override
    public String name() {
      return "Faulty";
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      long v = (node.allocatable().milliCpu() / 1000 * 7 + podCpu(pod) / 500 * 13) % 23;
      if (v == 22) {
        throw new IllegalStateException("faulty on " + node.name());
      }
      return v == 21 ? 101 : v * 4;
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
      return score(state, pod, table.view(node));
    }

    @Override
    public long[] scoreKey(CycleState state, PodInfo pod) {
      return new long[] {podCpu(pod)};
    }

    private static long podCpu(PodInfo pod) {
      return pod.pod().spec().effectiveRequests().milliCpu();
    }
  }

  private static NodeInfo randomView(String name, Random random) {
    ResourceList.Builder alloc = ResourceList.builder().put("cpu", Quantity.ofMilli(random.nextInt(4) * 2000L))
        .put("memory", (random.nextInt(4) * 2048L) + "Mi").put("pods", Quantity.of(10));
    if (random.nextBoolean()) {
      alloc.put(GPU, Quantity.of(random.nextInt(5)));
    }
    ResourceList a = alloc.build();
    Node.Builder b = Node.builder().name(name).capacity(a).allocatable(a);
    int taints = random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0;
    for (int t = 0; t < taints; t++) {
      b.taint(new Taint("t" + t, "", TaintEffect.PreferNoSchedule, null));
    }
    List<PodInfo> pods = new ArrayList<>();
    int count = random.nextInt(4);
    for (int i = 0; i < count; i++) {
      pods.add(EnginePodInfo.of(pod(name + "-p" + i, random.nextInt(3) * 300L, random.nextInt(3) * 100L,
          random.nextInt(2))));
    }
    return NodeInfos.of(b.build(), pods);
  }

  private static Pod pod(String name, long cpuMilli, long memMi, long gpus) {
    ResourceList.Builder r = ResourceList.builder();
    if (cpuMilli > 0) {
      r.put("cpu", Quantity.ofMilli(cpuMilli));
    }
    if (memMi > 0) {
      r.put("memory", memMi + "Mi");
    }
    if (gpus > 0) {
      r.put(GPU, Quantity.of(gpus));
    }
    return Pod.builder().name(name).container("c", "pause", r.build()).build();
  }
}
