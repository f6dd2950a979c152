package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
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
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.PluginRegistry;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Score that leaves out the plugins whose normalised score is {@link TableScore#uniformScore uniform} gives what running
 * them gives: two frameworks of the same profile, one skipping them and one not ({@link Framework#skipUniformScores}),
 * run the same random cycles and must return equal statuses, equal totals and the same {@code selectHost} choice.
 * Tables are untainted in some runs (TaintToleration is then uniform) and hold PreferNoSchedule and NoSchedule taints
 * in others (it is not); a second uniform test plugin sometimes joins, so that two offsets add up; the kept sums are on
 * or off, and Score runs on one thread or fanned out. Where the kept sums made every total, the highest total they
 * noted on the way ({@link Framework#knownTotalsMax}) is the highest of the totals.
 */
final class UniformScorePropertiesTest {

  @Property(tries = 200)
  void skippingUniformPlugins_givesTheSameTotalsAndChoice(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 30) int nodeCount, @ForAll boolean tainted, @ForAll boolean withConstant,
      @ForAll boolean sums, @ForAll boolean fanOut) {
    Random random = new Random(seed);
    Framework skipping = framework(withConstant);
    Framework full = framework(withConstant);
    full.skipUniformScores(false);
    skipping.cacheScoreSums(sums);
    full.cacheScoreSums(sums);
    ScoredViews nodes = new ScoredViews();
    for (int i = 0; i < nodeCount; i++) {
      nodes.set(i, randomView("n" + i, random, tainted));
    }
    NodeTable table = nodes.table;
    ParallelRunner runner = new ParallelRunner(fanOut ? 2 : 1);
    int maxKnown = 0;
    try {
      for (int cycle = 0; cycle < 30; cycle++) {
        int i = random.nextInt(nodes.size());
        nodes.set(i, randomView("n" + i, random, tainted));
        PodInfo pod = EnginePodInfo.of(pod("p" + cycle, random.nextInt(4) * 250L, random.nextInt(4) * 128L,
            random.nextBoolean()));
        ScoredViews.Feasible f = nodes.pick(random);
        int[] indices = f.indices();
        List<NodeInfo> feasible = f.views();
        int k = indices.length;
        long[] expected = new long[k];
        long[] actual = new long[k];
        Arrays.fill(actual, -7);
        int inline = fanOut ? 1 : 4096;
        Status e = run(full, pod, table, indices, feasible, expected, runner, inline);
        Status a = run(skipping, pod, table, indices, feasible, actual, runner, inline);
        assertThat(a).as("cycle %d, %s on %s", cycle, pod.key(), feasible).isEqualTo(e);
        assertThat(e.isSuccess()).isTrue();
        assertThat(actual).as("cycle %d, %s on %s", cycle, pod.key(), feasible).containsExactly(expected);
        long knownMax = skipping.knownTotalsMax();
        if (knownMax != Long.MIN_VALUE) {
          assertThat(knownMax).as("the highest total the kept sums noted").isEqualTo(Arrays.stream(expected).max()
              .getAsLong());
          maxKnown++;
        }
        long draw = random.nextLong();
        assertThat(HostSelection.selectHost(actual, k, new SplittableRandom(draw)))
            .isEqualTo(HostSelection.selectHost(expected, k, new SplittableRandom(draw)));
      }
    } finally {
      runner.close();
    }
    if (sums && !fanOut && !tainted && !withConstant) {
      assertThat(maxKnown).as("cycles whose kept sums made every total").isGreaterThan(0);
    }
  }

  /** TaintToleration's uniform score is what Score and NormalizeScore give every node of any subset of the table. */
  @Property(tries = 300)
  void taintTolerationUniformScore_isItsNormalisedScoreOnEveryNode(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 20) int nodeCount, @ForAll boolean tainted, @ForAll boolean tolerates) {
    Random random = new Random(seed);
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodeCount);
    List<NodeInfo> views = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      NodeInfo v = randomView("n" + i, random, tainted && random.nextBoolean());
      views.add(v);
      table.set(i, v);
    }
    TaintTolerationPlugin plugin = new TaintTolerationPlugin();
    PodInfo pod = EnginePodInfo.of(pod("p", 100, 64, tolerates));
    ArrayCycleState state = new ArrayCycleState();
    assertThat(plugin.preScore(state, pod, views).isSuccess()).isTrue();
    long uniform = plugin.uniformScore(state, pod, table);
    boolean anyTainted = views.stream().anyMatch(v -> !v.taints().isEmpty());
    assertThat(uniform == TableScore.NOT_UNIFORM).as("uniform only without taints").isEqualTo(anyTainted);
    if (uniform == TableScore.NOT_UNIFORM) {
      return;
    }
    int k = 1 + random.nextInt(nodeCount);
    List<NodeInfo> subset = new ArrayList<>(views.subList(0, k));
    long[] scores = new long[k];
    for (int pos = 0; pos < k; pos++) {
      scores[pos] = plugin.score(state, pod, subset.get(pos));
    }
    plugin.normalizeScores(state, pod, subset, scores);
    for (long s : scores) {
      assertThat(s).isEqualTo(uniform);
    }
  }

  private static Status run(Framework fw, PodInfo pod, NodeTable table, int[] indices, List<NodeInfo> feasible,
      long[] totals, ParallelRunner runner, int inlineWork) {
    ArrayCycleState state = new ArrayCycleState();
    Status pre = fw.runPreScore(state, pod, feasible);
    if (!pre.isSuccess()) {
      return pre;
    }
    return fw.runScore(state, pod, table, indices, feasible, indices.length, totals, runner, inlineWork);
  }

  private static Framework framework(boolean withConstant) {
    SchedulerProfile.Builder profile = SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .plugin(TaintTolerationPlugin.NAME, 3).plugin(NodeResourcesFitPlugin.NAME, 1);
    if (withConstant) {
      profile.plugin("Constant", 2);
    }
    profile.plugin(NodeResourcesBalancedAllocationPlugin.NAME, 1);
    PluginRegistry reg = PluginRegistry.defaults().with("Constant", h -> new Constant());
    return new Framework(profile.build(), reg, Clock.systemUTC(), new ClusterSnapshot(), WaitingPods.NONE, new ClusterObjects());
  }

  /** Scores every node 37 after normalising raw scores that differ per node, and says so. */
  private static final class Constant implements TableScore {
    @Override
    public String name() {
      return "Constant";
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      return node.podCount();
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
      return table.podCount(node);
    }

    @Override
    public void normalizeScores(CycleState state, PodInfo pod, List<NodeInfo> nodes, long[] scores) {
      Arrays.fill(scores, 37);
    }

    @Override
    public long uniformScore(CycleState state, PodInfo pod, NodeTable table) {
      return 37;
    }
  }

  private static NodeInfo randomView(String name, Random random, boolean tainted) {
    ResourceList a = ResourceList.builder().put("cpu", Quantity.ofMilli(random.nextInt(4) * 2000L))
        .put("memory", (random.nextInt(4) * 2048L) + "Mi").put("pods", Quantity.of(10)).build();
    Node.Builder b = Node.builder().name(name).capacity(a).allocatable(a);
    if (tainted && random.nextInt(3) == 0) {
      b.taint(new Taint("t" + random.nextInt(2), "", random.nextBoolean() ? TaintEffect.PreferNoSchedule
          : TaintEffect.NoSchedule, null));
    }
    List<PodInfo> pods = new ArrayList<>();
    int count = random.nextInt(4);
    for (int i = 0; i < count; i++) {
      pods.add(EnginePodInfo.of(pod(name + "-p" + i, random.nextInt(3) * 300L, random.nextInt(3) * 100L, false)));
    }
    return NodeInfos.of(b.build(), pods);
  }

  private static Pod pod(String name, long cpuMilli, long memMi, boolean toleratesT0) {
    ResourceList.Builder r = ResourceList.builder();
    if (cpuMilli > 0) {
      r.put("cpu", Quantity.ofMilli(cpuMilli));
    }
    if (memMi > 0) {
      r.put("memory", memMi + "Mi");
    }
    Pod.Builder b = Pod.builder().name(name).container("c", "pause", r.build());
    if (toleratesT0) {
      b.toleration(new Toleration("t0", io.fleetkit.api.scheduling.TolerationOperator.Exists, "", TaintEffect.PreferNoSchedule, null));
    }
    return b.build();
  }
}
