package io.fleetkit.scheduler.internal;

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
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import io.fleetkit.scheduler.plugins.helper.SimpleCycleState;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationArgs;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesBalancedAllocationPlugin;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitArgs;
import io.fleetkit.scheduler.plugins.noderesources.NodeResourcesFitPlugin;
import io.fleetkit.scheduler.plugins.noderesources.ResourceSpec;
import io.fleetkit.scheduler.plugins.noderesources.ScoringStrategy;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link ScoreCache} answers exactly as the plugin itself: over random sequences of cycles (pods of a few shapes, more
 * shapes than the cache keeps keys, so keys are evicted and re-adopted) and node changes (rows replaced between
 * cycles, the table grown), every score read through the cache equals the plugin's {@code NodeInfo} score on the
 * node's current view, for NodeResourcesFit's strategies and BalancedAllocation, over shuffled sub-ranges of positions.
 */
final class ScoreCachePropertiesTest {
  private static final String GPU = "nvidia.com/gpu";
  private static final List<ResourceSpec> WITH_GPU =
      List.of(ResourceSpec.of("cpu", 1), ResourceSpec.of("memory", 2), ResourceSpec.of(GPU, 3));

  private static List<TableScore> plugins() {
    return List.of(new NodeResourcesFitPlugin(),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.mostAllocated(WITH_GPU))),
        new NodeResourcesFitPlugin(NodeResourcesFitArgs.of(ScoringStrategy.requestedToCapacityRatio(WITH_GPU,
            ScoringStrategy.DEFAULT_SHAPE))),
        new NodeResourcesBalancedAllocationPlugin(),
        new NodeResourcesBalancedAllocationPlugin(NodeResourcesBalancedAllocationArgs.of("cpu", "memory", GPU)));
  }

  @Property(tries = 150)
  void cachedScores_equalThePluginsScores_acrossCyclesAndNodeChanges(@ForAll long seed,
      @ForAll @IntRange(min = 1, max = 40) int nodeCount, @ForAll @IntRange(min = 1, max = 7) int shapes) {
    Random random = new Random(seed);
    List<Pod> podShapes = new ArrayList<>();
    for (int s = 0; s < shapes; s++) {
      podShapes.add(pod("shape" + s, random.nextInt(4) * 500L, random.nextInt(4) * 256L, random.nextInt(3)));
    }
    List<TableScore> plugins = plugins();
    List<ScoreCache> caches = new ArrayList<>();
    for (int j = 0; j < plugins.size(); j++) {
      caches.add(new ScoreCache());
    }
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodeCount);
    List<NodeInfo> views = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      NodeInfo v = randomView("n" + i, random);
      views.add(v);
      table.set(i, v);
    }
    int checked = 0;
    for (int cycle = 0; cycle < 30; cycle++) {
      // between cycles: a few rows change (a bind, an update), sometimes the table grows
      int changes = random.nextInt(3);
      for (int c = 0; c < changes; c++) {
        int i = random.nextInt(views.size());
        NodeInfo v = randomView("n" + i, random);
        views.set(i, v);
        table.set(i, v);
      }
      if (random.nextInt(10) == 0) {
        int i = views.size();
        table.ensureCapacity(i + 1);
        NodeInfo v = randomView("n" + i, random);
        views.add(v);
        table.set(i, v);
      }
      PodInfo pod = PodInfos.of(podShapes.get(random.nextInt(podShapes.size())));
      int n = views.size();
      List<Integer> order = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        order.add(i);
      }
      Collections.shuffle(order, random);
      int k = 1 + random.nextInt(n);
      int from = random.nextInt(3);
      int to = from + k;
      int[] nodes = new int[to + 2];
      for (int pos = from; pos < to; pos++) {
        nodes[pos] = order.get(pos - from);
      }
      for (int j = 0; j < plugins.size(); j++) {
        TableScore plugin = plugins.get(j);
        CycleState state = new SimpleCycleState();
        ((PreScorePlugin) plugin).preScore(state, pod, views);
        long[] key = plugin.scoreKey(state, pod);
        if (key == null) {
          continue; // a best-effort pod: BalancedAllocation gives no key and is not cached
        }
        ScoreCache.Slot slot = caches.get(j).slot(key, table);
        long[] out = new long[to + 2];
        Arrays.fill(out, -7);
        int[] missPos = new int[to + 2];
        int[] missNodes = new int[to + 2];
        long[] missOut = new long[to + 2];
        slot.scoreAll(plugin, state, pod, table, nodes, from, to, out, missPos, missNodes, missOut);
        for (int pos = 0; pos < out.length; pos++) {
          if (pos < from || pos >= to) {
            assertThat(out[pos]).as("outside the range").isEqualTo(-7);
            continue;
          }
          int node = nodes[pos];
          assertThat(out[pos]).as("%s, cycle %d, %s on %s", plugin, cycle, pod.key(), views.get(node))
              .isEqualTo(((ScorePlugin) plugin).score(state, pod, views.get(node)));
          checked++;
        }
      }
    }
    assertThat(checked).isGreaterThan(0);
  }

  @Property(tries = 50)
  void sameKey_unchangedRows_areReadBack_changedRowsAreComputed(@ForAll long seed,
      @ForAll @IntRange(min = 2, max = 30) int nodeCount) {
    Random random = new Random(seed);
    NodeTable table = new NodeTable();
    table.ensureCapacity(nodeCount);
    List<NodeInfo> views = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      NodeInfo v = randomView("n" + i, random);
      views.add(v);
      table.set(i, v);
    }
    CountingScore plugin = new CountingScore(new NodeResourcesFitPlugin());
    PodInfo pod = PodInfos.of(pod("p", 500, 256, 0));
    CycleState state = new SimpleCycleState();
    plugin.inner.preScore(state, pod, views);
    ScoreCache cache = new ScoreCache();
    int[] nodes = new int[nodeCount];
    for (int i = 0; i < nodeCount; i++) {
      nodes[i] = i;
    }
    long[] out = new long[nodeCount];
    int[] missPos = new int[nodeCount];
    int[] missNodes = new int[nodeCount];
    long[] missOut = new long[nodeCount];
    cache.slot(plugin.scoreKey(state, pod), table)
        .scoreAll(plugin, state, pod, table, nodes, 0, nodeCount, out, missPos, missNodes, missOut);
    assertThat(plugin.computed).as("first cycle computes every node").isEqualTo(nodeCount);
    int changed = random.nextInt(nodeCount);
    NodeInfo v = randomView("n" + changed, random);
    views.set(changed, v);
    table.set(changed, v);
    plugin.computed = 0;
    cache.slot(plugin.scoreKey(state, pod).clone(), table)
        .scoreAll(plugin, state, pod, table, nodes, 0, nodeCount, out, missPos, missNodes, missOut);
    assertThat(plugin.computed).as("only the changed row is computed again").isEqualTo(1);
    for (int i = 0; i < nodeCount; i++) {
      assertThat(out[i]).isEqualTo(plugin.inner.score(state, pod, views.get(i)));
    }
  }

  /** Counts the nodes the plugin was asked to score (through the range path). */
  private static final class CountingScore implements TableScore {
    final NodeResourcesFitPlugin inner;
    int computed;

    CountingScore(NodeResourcesFitPlugin inner) {
      this.inner = inner;
    }

    @Override
    public String name() {
      return inner.name();
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeInfo node) {
      computed++;
      return inner.score(state, pod, node);
    }

    @Override
    public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
      computed++;
      return inner.score(state, pod, table, node);
    }

    @Override
    public long[] scoreKey(CycleState state, PodInfo pod) {
      return inner.scoreKey(state, pod);
    }
  }

  private static NodeInfo randomView(String name, Random random) {
    ResourceList.Builder alloc = ResourceList.builder().put("cpu", Quantity.ofMilli(random.nextInt(4) * 2000L))
        .put("memory", (random.nextInt(4) * 2048L) + "Mi").put("pods", Quantity.of(10));
    if (random.nextBoolean()) {
      alloc.put(GPU, Quantity.of(random.nextInt(5)));
    }
    ResourceList a = alloc.build();
    Node node = Node.builder().name(name).capacity(a).allocatable(a).build();
    List<PodInfo> pods = new ArrayList<>();
    int count = random.nextInt(4);
    for (int i = 0; i < count; i++) {
      pods.add(PodInfos.of(pod(name + "-p" + i, random.nextInt(3) * 300L, random.nextInt(3) * 100L,
          random.nextInt(2))));
    }
    return NodeInfos.of(node, pods);
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
