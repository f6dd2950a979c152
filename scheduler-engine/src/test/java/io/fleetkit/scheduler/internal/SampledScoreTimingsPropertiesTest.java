package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.framework.WaitingPods;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.metrics.SchedulerMetrics;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A sampled cycle scores the plugins whose weighted sum is kept ({@link CachedScoreSum}) through the kept sum, and the
 * plugins whose normalised score is the same on every node through that one answer, as an unsampled one does, and
 * times each group together ({@link PluginTimings#observeKeptSum}, {@link PluginTimings#observeUniform}): every
 * plugin-duration observation must still reach the series the plugin-by-plugin path gives it, as often. Two
 * frameworks of the same profile run the same random sampled cycles, one with both short cuts and one scoring every
 * plugin on its own ({@link Framework#cacheScoreSums}, {@link Framework#skipUniformScores}); their {@code scheduler_plugin_execution_duration_seconds} series (plugin,
 * extension point, status) and the number of observations in each must be equal after every cycle, every duration
 * non-negative, and the totals equal.
 */
final class SampledScoreTimingsPropertiesTest {
  @Property(tries = 150)
  void sampledScore_keptSum_reachesTheSeriesOfThePluginByPluginPath(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 25) int nodeCount, @ForAll @IntRange(min = 1, max = 5) int shapes,
      @ForAll boolean tainted) {
    Random random = new Random(seed);
    List<Pod> podShapes = new ArrayList<>();
    for (int s = 0; s < shapes; s++) {
      podShapes.add(pod("shape" + s, random.nextInt(4) * 500L, random.nextInt(4) * 256L));
    }
    RecordedHistograms summedMetrics = new RecordedHistograms();
    RecordedHistograms plainMetrics = new RecordedHistograms();
    ObservationBuffer summedBuffer = new ObservationBuffer();
    ObservationBuffer plainBuffer = new ObservationBuffer();
    Framework summed = framework();
    Framework plain = framework();
    plain.cacheScoreSums(false);
    plain.skipUniformScores(false);
    summed.recordPluginDurations(summedMetrics, summedBuffer);
    plain.recordPluginDurations(plainMetrics, plainBuffer);
    ScoredViews nodes = new ScoredViews();
    for (int i = 0; i < nodeCount; i++) {
      nodes.set(i, randomView("n" + i, random, tainted));
    }
    NodeTable table = nodes.table;
    for (int cycle = 0; cycle < 30; cycle++) {
      if (random.nextInt(3) == 0) {
        int i = random.nextInt(nodes.size());
        nodes.set(i, randomView("n" + i, random, tainted));
      }
      PodInfo pod = EnginePodInfo.of(podShapes.get(random.nextInt(podShapes.size())));
      ScoredViews.Feasible f = nodes.pick(random);
      int[] indices = f.indices();
      List<NodeInfo> feasible = f.views();
      int k = indices.length;
      long[] expected = new long[k];
      long[] actual = new long[k];
      Status e = sampledCycle(plain, pod, table, indices, feasible, expected);
      Status a = sampledCycle(summed, pod, table, indices, feasible, actual);
      assertThat(a).as("cycle %d", cycle).isEqualTo(e);
      assertThat(actual).as("cycle %d", cycle).containsExactly(expected);
      summedBuffer.flush();
      plainBuffer.flush();
      assertThat(summedMetrics.counts()).as("after cycle %d", cycle).isEqualTo(plainMetrics.counts());
    }
    String family = SchedulerMetrics.PLUGIN_EXECUTION_DURATION.name();
    assertThat(summedMetrics.observed.keySet()).allMatch(key -> key.get(0).equals(family));
    assertThat(summedMetrics.observed.values()).allMatch(v -> v.stream().allMatch(x -> x >= 0));
    // NodeResourcesFit (no NormalizeScore, always keyed here) is scored through the kept sum in every cycle
    assertThat(summedMetrics.observed.get(List.of(family, NodeResourcesFitPlugin.NAME, "Score", "Success")))
        .hasSize(30);
    // TaintToleration answered for all nodes at once whenever no examined node had a PreferNoSchedule taint
    assertThat(summedMetrics.observed.get(List.of(family, TaintTolerationPlugin.NAME, "Score", "Success")))
        .hasSize(30);
    assertThat(summedMetrics.observed.get(List.of(family, TaintTolerationPlugin.NAME, "ScoreExtensionNormalize",
        "Success"))).hasSize(30);
    if (!tainted) {
      // no node has a PreferNoSchedule taint: every cycle took the answer for all nodes, which normalises nothing
      assertThat(summedMetrics.observed.get(List.of(family, TaintTolerationPlugin.NAME, "ScoreExtensionNormalize",
          "Success"))).containsOnly(0L);
    }
  }

  /** PreScore and Score of a cycle that times its plugins, starting at the Score point's start as the scheduler's. */
  private static Status sampledCycle(Framework fw, PodInfo pod, NodeTable table, int[] indices,
      List<NodeInfo> feasible, long[] totals) {
    ArrayCycleState state = new ArrayCycleState();
    state.recordPluginMetrics = true;
    state.clockMark = System.nanoTime();
    Status pre = fw.runPreScore(state, pod, feasible);
    if (!pre.isSuccess()) {
      return pre;
    }
    return fw.runScore(state, pod, table, indices, feasible, indices.length, totals, new ParallelRunner(1), 4096);
  }

  private static Framework framework() {
    SchedulerProfile profile = SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .plugin(TaintTolerationPlugin.NAME, 3).plugin(NodeResourcesFitPlugin.NAME, 1)
        .plugin(NodeResourcesBalancedAllocationPlugin.NAME, 1).build();
    return new Framework(profile, PluginRegistry.defaults(), Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE,
        new ClusterObjects());
  }

  private static NodeInfo randomView(String name, Random random, boolean tainted) {
    ResourceList a = ResourceList.builder().put("cpu", Quantity.ofMilli(random.nextInt(4) * 2000L))
        .put("memory", (random.nextInt(4) * 2048L) + "Mi").put("pods", Quantity.of(10)).build();
    Node.Builder b = Node.builder().name(name).capacity(a).allocatable(a);
    if (tainted && random.nextInt(4) == 0) {
      b.taint(new Taint("t", "", TaintEffect.PreferNoSchedule, null));
    }
    List<PodInfo> pods = new ArrayList<>();
    int count = random.nextInt(3);
    for (int i = 0; i < count; i++) {
      pods.add(EnginePodInfo.of(pod(name + "-p" + i, random.nextInt(3) * 300L, random.nextInt(3) * 100L)));
    }
    return NodeInfos.of(b.build(), pods);
  }

  private static Pod pod(String name, long cpuMilli, long memMi) {
    ResourceList.Builder r = ResourceList.builder();
    if (cpuMilli > 0) {
      r.put("cpu", Quantity.ofMilli(cpuMilli));
    }
    if (memMi > 0) {
      r.put("memory", memMi + "Mi");
    }
    return Pod.builder().name(name).container("c", "pause", r.build()).build();
  }
}
