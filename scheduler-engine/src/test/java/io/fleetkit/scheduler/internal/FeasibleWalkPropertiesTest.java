package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
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
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import io.fleetkit.scheduler.plugins.prioritysort.PrioritySortPlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The serial Filter that walks the examined positions for {@code find} range by range as it filters
 * ({@link FeasibleNodes#walkWhileFiltering}) finds what the walk made afterwards finds: over random tables (full,
 * cordoned and tainted nodes, a plugin that errs on some nodes), percentages to score and successive cycles (so that
 * the rotating start, which follows the cut-off, is compared too), both return the same count, the same feasible
 * nodes in order, and the same error.
 */
final class FeasibleWalkPropertiesTest {
  private static final ResourceList ROOMY = ResourceList.builder().put("cpu", Quantity.of(8)).put("memory", "8Gi")
      .put("pods", Quantity.of(10)).build();

  @Property(tries = 200)
  void walkingWhileFiltering_findsTheSame(@ForAll long seed, @ForAll @IntRange(min = 1, max = 400) int nodeCount,
      @ForAll @IntRange(min = 0, max = 3) int pctChoice, @ForAll boolean withFaulty) {
    Random r = new Random(seed);
    Integer pct = switch (pctChoice) {
      case 0 -> null;
      case 1 -> 5;
      case 2 -> 30;
      default -> 100;
    };
    ClusterSnapshot snapshot = new ClusterSnapshot();
    snapshot.table.ensureCapacity(nodeCount);
    snapshot.table.set(0, NodeInfos.of(Node.builder().name("n0").capacity(ROOMY).allocatable(ROOMY).build(),
        List.of())); // one node every pod fits
    for (int i = 1; i < nodeCount; i++) {
      snapshot.table.set(i, randomView("n" + i, r));
    }
    snapshot.size = nodeCount;
    Framework fw = framework(pct, withFaulty);
    long firstStart = r.nextInt(nodeCount);
    FeasibleNodes walking = new FeasibleNodes(snapshot, new Nominator(), new ParallelRunner(1), 1 << 30, firstStart);
    FeasibleNodes after = new FeasibleNodes(snapshot, new Nominator(), new ParallelRunner(1), 1 << 30, firstStart);
    after.walkWhileFiltering(false);
    int found = 0;
    for (int cycle = 0; cycle < 12; cycle++) {
      PodInfo pod = EnginePodInfo.of(pod("p" + cycle, 250L * (1 + r.nextInt(8)), 128L * (1 + r.nextInt(8))));
      int a = find(fw, walking, pod);
      int e = find(fw, after, pod);
      assertThat(a).as("cycle %d", cycle).isEqualTo(e);
      if (e < 0) {
        assertThat(walking.error()).isEqualTo(after.error());
      } else {
        for (int k = 0; k < e; k++) {
          assertThat(walking.node(k).name()).as("cycle %d, feasible node %d", cycle, k)
              .isEqualTo(after.node(k).name());
        }
        found += e;
      }
      walking.clear();
      after.clear();
    }
    assertThat(found + (withFaulty ? 1 : 0)).as("feasible nodes found over the cycles").isGreaterThan(0);
  }

  private static int find(Framework fw, FeasibleNodes nodes, PodInfo pod) {
    ArrayCycleState state = new ArrayCycleState();
    Framework.PreFilterOutcome pre = fw.runPreFilter(state, pod);
    assertThat(pre.status().isSuccess() || pre.status().isSkip()).isTrue();
    return nodes.find(fw, state, pod, pre.allowed());
  }

  private static Framework framework(Integer pct, boolean withFaulty) {
    SchedulerProfile.Builder profile = SchedulerProfile.builder("s").plugin(PrioritySortPlugin.NAME)
        .plugin(NodeUnschedulablePlugin.NAME).plugin(TaintTolerationPlugin.NAME).plugin(NodeResourcesFitPlugin.NAME);
    if (withFaulty) {
      profile.plugin("Faulty");
    }
    profile.percentageOfNodesToScore(pct);
    PluginRegistry reg = PluginRegistry.defaults().with("Faulty", h -> new Faulty());
    WaitingPods none = new WaitingPods() {
      @Override
      public Set<String> keys() {
        return Set.of();
      }

      @Override
      public void allow(String podKey, String pluginName) {}

      @Override
      public void reject(String podKey, String pluginName, String reason) {}
    };
    return new Framework(profile.build(), reg, Clock.systemUTC(), new ClusterSnapshot(), none, new ClusterObjects());
  }

  /** Errs on nodes whose number is a multiple of 37, rejects those of 5. */
  private static final class Faulty implements FilterPlugin {
    @Override
    public String name() {
      return "Faulty";
    }

    @Override
    public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
      int i = Integer.parseInt(node.name().substring(1));
      if (i % 37 == 36) {
        return Status.error("faulty on " + node.name());
      }
      return i % 5 == 4 ? Status.unschedulable("faulty") : Status.success();
    }
  }

  private static NodeInfo randomView(String name, Random r) {
    ResourceList a = ResourceList.builder().put("cpu", Quantity.ofMilli(r.nextInt(5) * 1000L))
        .put("memory", (r.nextInt(5) * 512L) + "Mi").put("pods", Quantity.of(1 + r.nextInt(4))).build();
    Node.Builder b = Node.builder().name(name).capacity(a).allocatable(a).unschedulable(r.nextInt(10) == 0);
    if (r.nextInt(8) == 0) {
      b.taint(new Taint("t", "", TaintEffect.NoSchedule, null));
    }
    List<PodInfo> pods = new ArrayList<>();
    for (int i = 0, n = r.nextInt(3); i < n; i++) {
      pods.add(EnginePodInfo.of(pod(name + "-p" + i, r.nextInt(3) * 300L, r.nextInt(3) * 100L)));
    }
    return NodeInfos.of(b.build(), pods);
  }

  private static Pod pod(String name, long cpuMilli, long memMi) {
    ResourceList.Builder req = ResourceList.builder();
    if (cpuMilli > 0) {
      req.put("cpu", Quantity.ofMilli(cpuMilli));
    }
    if (memMi > 0) {
      req.put("memory", memMi + "Mi");
    }
    return Pod.builder().name(name).container("c", "pause", req.build()).build();
  }
}
