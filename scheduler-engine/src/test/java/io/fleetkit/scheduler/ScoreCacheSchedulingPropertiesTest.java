package io.fleetkit.scheduler;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.ClusterEvent;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.EnqueueExtensions;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.time.ManualClock;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableFilter;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jspecify.annotations.Nullable;

/**
 * The engine's per-node score cache ({@code TableScore.scoreKey}) changes no decision: a scheduler with kube's default
 * plugins and one whose NodeResourcesFit and NodeResourcesBalancedAllocation give no key (so every node is scored every
 * cycle) produce the same results, cycle by cycle, over random clusters (some nodes with PreferNoSchedule taints, so
 * TaintToleration's normalisation varies), pods of a few shapes (so keys repeat), node updates, deletions,
 * percentageOfNodesToScore adaptive, 30 and 100, serial and fanned out over threads.
 */
final class ScoreCacheSchedulingPropertiesTest {

  @Property(tries = 40)
  void cachedAndUncachedSchedulers_decideAlike(@ForAll long seed, @ForAll @IntRange(min = 1, max = 120) int nodes,
      @ForAll @IntRange(min = 1, max = 6) int shapes, @ForAll @IntRange(min = 0, max = 3) int pctChoice,
      @ForAll boolean parallel) {
    int pct = new int[] {0, 30, 100, 0}[pctChoice];
    List<ScheduleResult> cached = run(seed, nodes, shapes, pct, parallel, false);
    List<ScheduleResult> uncached = run(seed, nodes, shapes, pct, parallel, true);
    assertThat(cached).isEqualTo(uncached);
    assertThat(cached).isNotEmpty();
  }

  private static List<ScheduleResult> run(long seed, int nodeCount, int shapes, int pct, boolean parallel,
      boolean withoutKeys) {
    Random random = new Random(seed);
    PluginRegistry defaults = PluginRegistry.defaults();
    PluginRegistry.Builder reg = PluginRegistry.builder();
    for (String name : defaults.names()) {
      if (withoutKeys && name.equals(NodeResourcesFitPlugin.NAME)) {
        reg.register(name, h -> new UncachedFit((NodeResourcesFitPlugin) defaults.factory(name).create(h)));
      } else if (withoutKeys && name.equals(NodeResourcesBalancedAllocationPlugin.NAME)) {
        reg.register(name, h -> new UncachedScore((NodeResourcesBalancedAllocationPlugin)
            defaults.factory(name).create(h)));
      } else {
        reg.register(name, defaults.factory(name));
      }
    }
    SchedulerProfile profile = DefaultPlugins.profile().toBuilder().percentageOfNodesToScore(pct == 0 ? null : pct)
        .build();
    ManualClock clock = ManualClock.atEpoch2026();
    SchedulerBuilder b = Scheduler.builder().registry(reg.build()).profile(profile).clock(clock).seed(seed);
    if (parallel) {
      b.parallelism(3).inlineWork(0);
    }
    List<ScheduleResult> results = new ArrayList<>();
    try (Scheduler s = b.build()) {
      for (int i = 0; i < nodeCount; i++) {
        s.addNode(randomNode("n" + i, random));
      }
      long[][] podShapes = new long[shapes][];
      for (int i = 0; i < shapes; i++) {
        podShapes[i] = new long[] {random.nextInt(5) * 250L, random.nextInt(5) * 256L};
      }
      int pods = 40 + random.nextInt(160);
      for (int i = 0; i < pods; i++) {
        long[] shape = podShapes[random.nextInt(shapes)];
        s.addPod(pod("p" + i, shape[0], shape[1]));
        if (random.nextInt(10) == 0) {
          results.addAll(s.runUntilIdle());
        }
        if (random.nextInt(25) == 0) {
          s.updateNode(randomNode("n" + random.nextInt(nodeCount), random));
        }
        if (random.nextInt(20) == 0 && i > 0) {
          s.removePod("default/p" + random.nextInt(i));
        }
      }
      results.addAll(s.runUntilIdle());
      clock.advance(Duration.ofSeconds(11));
      results.addAll(s.runUntilIdle());
    }
    return results;
  }

  private static Node randomNode(String name, Random random) {
    Node n = node(name, 1000L + random.nextInt(4) * 1000L, 1024L + random.nextInt(4) * 1024L, 4 + random.nextInt(8));
    if (random.nextInt(6) == 0) {
      n = n.toBuilder().taint(Taint.of("spot", "true", TaintEffect.PreferNoSchedule)).build();
    }
    return n;
  }

  /** BalancedAllocation without a score key: every node is scored every cycle. */
  private static final class UncachedScore implements PreScorePlugin, TableScore {
    private final NodeResourcesBalancedAllocationPlugin inner;

    UncachedScore(NodeResourcesBalancedAllocationPlugin inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
      return inner.preScore(state, pod, feasibleNodes);
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
  }

  /** NodeResourcesFit without a score key (with its queueing hints, so that pods are retried alike). */
  private static final class UncachedFit
      implements PreFilterPlugin, TableFilter, PreScorePlugin, TableScore, EnqueueExtensions {
    private final NodeResourcesFitPlugin inner;

    UncachedFit(NodeResourcesFitPlugin inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public Set<ClusterEvent> eventsToRegister() {
      return inner.eventsToRegister();
    }

    @Override
    public boolean isSchedulableAfter(Pod pod, ClusterEvent event, @Nullable Object oldObject,
        @Nullable Object newObject) {
      return inner.isSchedulableAfter(pod, event, oldObject, newObject);
    }

    @Override
    public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
      return inner.preFilter(state, pod, snapshot);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      return inner.filter(state, pod, node);
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeTable table, int node) {
      return inner.filter(state, pod, table, node);
    }

    @Override
    public void filterAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, int[] failed,
        int mark, Status[] statuses) {
      inner.filterAll(state, pod, table, nodes, from, to, failed, mark, statuses);
    }

    @Override
    public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
      return inner.preScore(state, pod, feasibleNodes);
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
  }
}
