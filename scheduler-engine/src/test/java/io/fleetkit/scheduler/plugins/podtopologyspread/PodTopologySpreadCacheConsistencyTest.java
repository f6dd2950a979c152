package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HONOR;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.SOFT;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.TAINTS;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The caches kept across cycles (per-node counts, running domain totals, shared domain indexes) must give exactly
 * what a fresh plugin computes, while nodes gain and lose pods, change labels, appear and disappear between pods.
 */
final class PodTopologySpreadCacheConsistencyTest {

  /** A mutable cluster whose NodeInfos are replaced (with a new generation) whenever a node changes. */
  static final class ChangingCluster implements Snapshot {
    final List<NodeInfo> nodes = new ArrayList<>();
    final Map<String, List<PodInfo>> pods = new HashMap<>();
    final Map<String, Node> nodeObjects = new HashMap<>();

    void put(Node n) {
      String name = n.metadata().name();
      nodeObjects.put(name, n);
      NodeInfo info = NodeInfos.of(n, pods.getOrDefault(name, List.of()));
      for (int i = 0; i < nodes.size(); i++) {
        if (nodes.get(i).name().equals(name)) {
          nodes.set(i, info);
          return;
        }
      }
      nodes.add(info);
    }

    void addPod(String nodeName, Pod p) {
      pods.computeIfAbsent(nodeName, k -> new ArrayList<>()).add(PodInfos.of(p));
      put(nodeObjects.get(nodeName));
    }

    /** Removes the {@code index}-th pod (modulo the node's pods) from the node, if it has any. */
    void removePod(String nodeName, int index) {
      List<PodInfo> list = pods.get(nodeName);
      if (list != null && !list.isEmpty()) {
        list.remove(index % list.size());
        put(nodeObjects.get(nodeName));
      }
    }

    void remove(String nodeName) {
      nodes.removeIf(n -> n.name().equals(nodeName));
      nodeObjects.remove(nodeName);
      pods.remove(nodeName);
    }

    @Override public List<NodeInfo> nodes() { return List.copyOf(nodes); }
    @Override public List<NodeInfo> nodesWithAffinityPods() { return List.of(); }
    @Override public List<NodeInfo> nodesWithRequiredAntiAffinityPods() { return List.of(); }
    @Override public @Nullable NodeInfo get(String name) {
      return nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
    }
    @Override public int size() { return nodes.size(); }
  }

  static Node randomNode(Random rnd, String name) {
    SpreadFixtures.NodeW n = node(name).label("kubernetes.io/hostname", name);
    if (rnd.nextInt(10) > 0) {
      n.label("zone", "z" + rnd.nextInt(4));
    }
    if (rnd.nextInt(8) == 0) {
      n.taints(TAINTS);
    }
    return n.obj();
  }

  @Test
  void preFilterAndPreScore_longLivedPlugin_matchFreshPlugin() {
    Random rnd = new Random(42);
    ChangingCluster cluster = new ChangingCluster();
    for (int i = 0; i < 30; i++) {
      cluster.put(randomNode(rnd, "n" + i));
    }
    PodTopologySpreadPlugin longLived = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    List<PodInfo> incoming = List.of(
        PodInfos.of(pod("p1").label("foo", "").spread(1, "zone", HARD, FOO).obj()),
        PodInfos.of(pod("p2").label("foo", "").spread(1, "zone", HARD, FOO)
            .spread(2, "kubernetes.io/hostname", HARD, FOO).obj()),
        PodInfos.of(pod("p3").label("foo", "").spread(1, "zone", HARD, FOO, null, null, HONOR, null).obj()),
        PodInfos.of(pod("p4").label("foo", "").nodeSelector(Map.of("zone", "z1")).spread(1, "zone", HARD, FOO).obj()),
        PodInfos.of(pod("p5").label("foo", "").spread(1, "zone", SOFT, FOO).spread(1, "kubernetes.io/hostname", SOFT,
            FOO).obj()),
        PodInfos.of(pod("p6").label("foo", "").nodeSelector(Map.of("zone", "z2")).spread(1, "zone", SOFT, FOO)
            .obj()),
        PodInfos.of(pod("p7").label("foo", "").spread(1, "zone", SOFT, FOO, null, null, HONOR, null).obj()));
    int podSeq = 0;
    for (int step = 0; step < 600; step++) {
      int action = rnd.nextInt(12);
      if (action >= 10) {
        cluster.removePod(cluster.nodes.get(rnd.nextInt(cluster.nodes.size())).name(), rnd.nextInt(8));
      } else if (action < 6) {
        String target = cluster.nodes.get(rnd.nextInt(cluster.nodes.size())).name();
        SpreadFixtures.PodW p = pod("e" + podSeq++).node(target);
        if (rnd.nextBoolean()) {
          p.label("foo", "");
        }
        if (rnd.nextInt(10) == 0) {
          p.ns("other");
        }
        cluster.addPod(target, p.obj());
      } else if (action < 8) {
        String target = cluster.nodes.get(rnd.nextInt(cluster.nodes.size())).name();
        cluster.put(randomNode(rnd, target));
      } else if (action == 8 && cluster.nodes.size() > 5) {
        cluster.remove(cluster.nodes.get(rnd.nextInt(cluster.nodes.size())).name());
      } else {
        cluster.put(randomNode(rnd, "n" + (100 + step)));
      }
      PodInfo p = incoming.get(step % incoming.size());
      PodTopologySpreadPlugin fresh = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
      MapCycleState a = new MapCycleState();
      MapCycleState b = new MapCycleState();
      assertThat(longLived.preFilter(a, p, cluster).status()).isEqualTo(fresh.preFilter(b, p, cluster).status());
      PreFilterState sa = a.read(PodTopologySpreadPlugin.PRE_FILTER_KEY);
      PreFilterState sb = b.read(PodTopologySpreadPlugin.PRE_FILTER_KEY);
      if (sa != null && sb != null) {
        assertThat(PodTopologySpreadAddRemovePodTest.countsOf(sa)).as("step %s", step)
            .isEqualTo(PodTopologySpreadAddRemovePodTest.countsOf(sb));
        for (int i = 0; i < sa.domains.length; i++) {
          assertThat(sa.domains[i].min()).isEqualTo(sb.domains[i].min());
        }
      }
      List<NodeInfo> feasible = cluster.nodes();
      assertThat(longLived.preScore(a, p, feasible).code()).isEqualTo(fresh.preScore(b, p, feasible).code());
      if (a.read(PodTopologySpreadPlugin.PRE_SCORE_KEY) != null) {
        assertThat(PodTopologySpreadScoreTest.scoreAll(longLived, a, p, feasible))
            .isEqualTo(PodTopologySpreadScoreTest.scoreAll(fresh, b, p, feasible));
      }
    }
  }
}
