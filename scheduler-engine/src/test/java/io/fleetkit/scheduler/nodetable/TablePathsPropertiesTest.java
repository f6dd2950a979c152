package io.fleetkit.scheduler.nodetable;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationArgs;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitArgs;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.noderesources.ResourceSpec;
import io.fleetkit.scheduler.plugins.noderesources.ScoringStrategy;
import io.fleetkit.scheduler.plugins.nodeunschedulable.NodeUnschedulablePlugin;
import io.fleetkit.scheduler.plugins.tainttoleration.TaintTolerationPlugin;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The built-in plugins' {@link TableFilter} and {@link TableScore} paths answer exactly as their {@code NodeInfo}
 * methods on the same node: same status (code, reasons, plugin) and same score, for nodes with and without taints,
 * cordoned or not, full or empty, with extended resources, and for every NodeResourcesFit scoring strategy.
 */
final class TablePathsPropertiesTest {
  private static final String GPU = "nvidia.com/gpu";
  private static final List<ResourceSpec> CPU_MEMORY = List.of(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 1));
  private static final List<ResourceSpec> WITH_GPU =
      List.of(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 2), ResourceSpec.of(GPU, 3));

  record NodeCase(long cpuMilli, long memMi, long pods, long gpus, boolean cordoned, int taint, List<Long> podCpu) {}

  record PodCase(long cpuMilli, long memMi, long gpus, boolean tolerates) {}

  @Provide
  Arbitrary<NodeCase> nodes() {
    return Combinators.combine(Arbitraries.longs().between(0, 8000), Arbitraries.longs().between(0, 4096),
        Arbitraries.longs().between(0, 6), Arbitraries.longs().between(0, 4), Arbitraries.of(true, false),
        Arbitraries.integers().between(0, 3), Arbitraries.longs().between(0, 3000).list().ofMaxSize(5))
        .as(NodeCase::new);
  }

  @Provide
  Arbitrary<List<NodeCase>> nodeLists() {
    return nodes().list().ofMinSize(1).ofMaxSize(6);
  }

  @Provide
  Arbitrary<PodCase> pods() {
    return Combinators.combine(Arbitraries.longs().between(0, 3000), Arbitraries.longs().between(0, 2048),
        Arbitraries.longs().between(0, 2), Arbitraries.of(true, false)).as(PodCase::new);
  }

  @Property(tries = 300)
  void tablePaths_answerAsTheViewPaths(@ForAll("nodeLists") List<NodeCase> nodes,
      @ForAll("pods") PodCase podCase) {
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodes.size());
    List<NodeInfo> views = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      NodeInfo v = view("n" + i, nodes.get(i));
      table.set(i, v);
      views.add(v);
    }
    PodInfo pod = PodInfos.of(pod("p", podCase.cpuMilli, podCase.memMi, podCase.gpus, podCase.tolerates));

    List<Object> plugins = List.of(NodeUnschedulablePlugin.INSTANCE, new TaintTolerationPlugin(),
        new NodeResourcesFitPlugin(),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.mostAllocated(CPU_MEMORY))),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.mostAllocated(WITH_GPU))),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.leastAllocated(WITH_GPU))),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.requestedToCapacityRatio(WITH_GPU,
            ScoringStrategy.DEFAULT_SHAPE))),
        new NodeResourcesBalancedAllocationPlugin(),
        new NodeResourcesBalancedAllocationPlugin(NodeResourcesBalancedAllocationArgs.of("cpu", "memory", GPU)));
    int checked = 0;
    for (Object plugin : plugins) {
      CycleState state = new SimpleCycleState();
      if (plugin instanceof NodeResourcesFitPlugin fit) {
        fit.preFilter(state, pod, null);
      }
      if (plugin instanceof PreScorePlugin ps) {
        ps.preScore(state, pod, views);
      }
      for (int i = 0; i < nodes.size(); i++) {
        if (plugin instanceof TableFilter f) {
          assertThat(f.filter(state, pod, table, i)).as("%s Filter on %s", plugin, nodes.get(i))
              .isEqualTo(f.filter(state, pod, views.get(i)));
          checked++;
        }
        if (plugin instanceof TableScore s) {
          assertThat(s.score(state, pod, table, i)).as("%s Score on %s", plugin, nodes.get(i))
              .isEqualTo(((ScorePlugin) s).score(state, pod, views.get(i)));
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(12 * nodes.size());
  }

  /**
   * The range paths ({@link TableFilter#filterAll}, {@link TableScore#scoreAll}) over a shuffled subset of positions
   * answer as the per-node paths node by node; positions already failed by an earlier plugin are left untouched.
   */
  @Property(tries = 200)
  void rangePaths_answerAsThePerNodePaths(@ForAll("nodeLists") List<NodeCase> nodes, @ForAll("pods") PodCase podCase,
      @ForAll long seed) {
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodes.size());
    List<NodeInfo> views = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      NodeInfo v = view("n" + i, nodes.get(i));
      table.set(i, v);
      views.add(v);
    }
    PodInfo pod = PodInfos.of(pod("p", podCase.cpuMilli, podCase.memMi, podCase.gpus, podCase.tolerates));
    java.util.Random random = new java.util.Random(seed);
    int from = 1;
    int to = from + nodes.size();
    int[] positions = new int[to + 1];
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < nodes.size(); i++) {
      order.add(i);
    }
    java.util.Collections.shuffle(order, random);
    for (int pos = from; pos < to; pos++) {
      positions[pos] = order.get(pos - from);
    }
    List<Object> plugins = List.of(NodeUnschedulablePlugin.INSTANCE, new TaintTolerationPlugin(),
        new NodeResourcesFitPlugin(),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.mostAllocated(CPU_MEMORY))),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.mostAllocated(WITH_GPU))),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.requestedToCapacityRatio(WITH_GPU,
            ScoringStrategy.DEFAULT_SHAPE))),
        new NodeResourcesBalancedAllocationPlugin(),
        new NodeResourcesBalancedAllocationPlugin(NodeResourcesBalancedAllocationArgs.of("cpu", "memory", GPU)));
    int checked = 0;
    for (Object plugin : plugins) {
      CycleState state = new SimpleCycleState();
      if (plugin instanceof NodeResourcesFitPlugin fit) {
        fit.preFilter(state, pod, null);
      }
      if (plugin instanceof PreScorePlugin ps) {
        ps.preScore(state, pod, views);
      }
      if (plugin instanceof TableFilter f) {
        int[] failed = new int[to + 1];
        io.fleetkit.api.framework.Status[] statuses = new io.fleetkit.api.framework.Status[to + 1];
        java.util.Arrays.fill(failed, -1);
        failed[0] = 9;
        failed[to] = 9;
        boolean[] preFailed = new boolean[to];
        for (int pos = from; pos < to; pos++) {
          if (random.nextInt(4) == 0) {
            preFailed[pos] = true;
            failed[pos] = 3;
          }
        }
        f.filterAll(state, pod, table, positions, from, to, failed, 7, statuses);
        assertThat(failed[0]).as("outside the range").isEqualTo(9);
        assertThat(failed[to]).as("outside the range").isEqualTo(9);
        for (int pos = from; pos < to; pos++) {
          int node = positions[pos];
          if (preFailed[pos]) {
            assertThat(failed[pos]).as("%s left an already failed node alone", plugin).isEqualTo(3);
            assertThat(statuses[pos]).isNull();
            checked++; // checked too: left alone
            continue;
          }
          io.fleetkit.api.framework.Status expected = f.filter(state, pod, views.get(node));
          if (expected.isSuccess()) {
            assertThat(failed[pos]).as("%s filterAll on %s", plugin, nodes.get(node)).isEqualTo(-1);
          } else {
            assertThat(failed[pos]).as("%s filterAll on %s", plugin, nodes.get(node)).isEqualTo(7);
            assertThat(statuses[pos]).as("%s filterAll status on %s", plugin, nodes.get(node)).isEqualTo(expected);
          }
          checked++;
        }
      }
      if (plugin instanceof TableScore s) {
        long[] out = new long[to + 1];
        out[0] = -5;
        out[to] = -5;
        s.scoreAll(state, pod, table, positions, from, to, out);
        assertThat(out[0]).isEqualTo(-5);
        assertThat(out[to]).isEqualTo(-5);
        for (int pos = from; pos < to; pos++) {
          int node = positions[pos];
          assertThat(out[pos]).as("%s scoreAll on %s", plugin, nodes.get(node))
              .isEqualTo(((ScorePlugin) s).score(state, pod, views.get(node)));
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThanOrEqualTo(8 * nodes.size());
  }

  @Property(tries = 100)
  void set_copiesTheViewsHotFields(@ForAll("nodes") NodeCase c) {
    NodeTable table = new NodeTable();
    table.ensureCapacity(3);
    NodeInfo v = view("n", c);
    table.set(2, v);
    assertThat(table.view(2)).isSameAs(v);
    assertThat(table.allocatableMilliCpu(2)).isEqualTo(v.allocatable().milliCpu());
    assertThat(table.allocatableMemory(2)).isEqualTo(v.allocatable().memoryBytes());
    assertThat(table.allocatableEphemeralStorage(2)).isEqualTo(v.allocatable().ephemeralStorageBytes());
    assertThat(table.allocatablePods(2)).isEqualTo(v.allocatable().pods());
    assertThat(table.requestedMilliCpu(2)).isEqualTo(v.requested().milliCpu());
    assertThat(table.requestedMemory(2)).isEqualTo(v.requested().memoryBytes());
    assertThat(table.requestedEphemeralStorage(2)).isEqualTo(v.requested().ephemeralStorageBytes());
    assertThat(table.nonZeroRequestedMilliCpu(2)).isEqualTo(v.nonZeroRequestedMilliCpu());
    assertThat(table.nonZeroRequestedMemory(2)).isEqualTo(v.nonZeroRequestedMemory());
    assertThat(table.podCount(2)).isEqualTo(c.podCpu().size());
    assertThat(table.unschedulable(2)).isEqualTo(c.cordoned());
    assertThat(table.tainted(2)).isEqualTo(c.taint() != 0);
    table.ensureCapacity(100);
    assertThat(table.view(2)).as("growing keeps the rows").isSameAs(v);
    assertThat(table.podCount(2)).isEqualTo(c.podCpu().size());
  }

  /**
   * The counts of unschedulable and tainted positions (which let NodeUnschedulable's and TaintToleration's ranges
   * answer at once when they are 0) equal the flagged positions after any sequence of sets, overwrites and clears.
   */
  @Property(tries = 200)
  void flagCounts_followSetsAndClears(@ForAll("nodeLists") List<NodeCase> nodes,
      @ForAll("positions") List<Integer> ops) {
    NodeTable table = new NodeTable();
    table.ensureCapacity(8);
    int step = 0;
    for (int op : ops) {
      if (op < 0) {
        table.clearFrom(-op - 1);
      } else {
        table.set(op, view("n" + op, nodes.get(step++ % nodes.size())));
      }
      int unschedulable = 0;
      int tainted = 0;
      for (int i = 0; i < table.capacity(); i++) {
        unschedulable += table.unschedulable(i) ? 1 : 0;
        tainted += table.tainted(i) ? 1 : 0;
      }
      assertThat(table.unschedulableCount()).isEqualTo(unschedulable);
      assertThat(table.taintedCount()).isEqualTo(tainted);
    }
  }

  /** Positions to set (0..7) and clears (-1 - from). */
  @Provide
  Arbitrary<List<Integer>> positions() {
    return Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.integers().between(0, 7)),
        Tuple.of(1, Arbitraries.integers().between(-8, -1))).list().ofMinSize(1).ofMaxSize(30);
  }

  private static NodeInfo view(String name, NodeCase c) {
    ResourceList.Builder alloc = ResourceList.builder().put("cpu", Quantity.ofMilli(c.cpuMilli()))
        .put("memory", c.memMi() + "Mi").put("pods", Quantity.of(c.pods()));
    if (c.gpus() > 0) {
      alloc.put(GPU, Quantity.of(c.gpus()));
    }
    ResourceList a = alloc.build();
    Node.Builder n = Node.builder().name(name).capacity(a).allocatable(a).unschedulable(c.cordoned());
    switch (c.taint()) {
      case 1 -> n.taint(Taint.of("dedicated", "x", TaintEffect.NoSchedule));
      case 2 -> n.taint(Taint.of("dedicated", "x", TaintEffect.PreferNoSchedule));
      case 3 -> n.taint(Taint.of("other", "y", TaintEffect.NoExecute))
          .taint(Taint.of("dedicated", "x", TaintEffect.PreferNoSchedule));
      default -> { }
    }
    List<PodInfo> pods = new ArrayList<>();
    for (int i = 0; i < c.podCpu().size(); i++) {
      pods.add(PodInfos.of(pod(name + "-p" + i, c.podCpu().get(i), 100, 0, false)));
    }
    return NodeInfos.of(n.build(), pods);
  }

  private static Pod pod(String name, long cpuMilli, long memMi, long gpus, boolean tolerates) {
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
    Pod.Builder p = Pod.builder().name(name).container("c", "pause", r.build());
    if (tolerates) {
      p.toleration(Toleration.exists("dedicated", null));
      p.toleration(Toleration.exists("node.kubernetes.io/unschedulable", TaintEffect.NoSchedule));
    }
    return p.build();
  }
}
