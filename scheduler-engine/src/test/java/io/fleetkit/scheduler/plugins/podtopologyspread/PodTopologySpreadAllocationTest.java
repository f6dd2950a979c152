package io.fleetkit.scheduler.plugins.podtopologyspread;

import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.FOO;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.HARD;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.SOFT;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.node;
import static io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.Cluster;
import io.fleetkit.scheduler.plugins.podtopologyspread.SpreadFixtures.MapCycleState;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Filter and Score must not allocate: they run for every node of every pod. */
final class PodTopologySpreadAllocationTest {

  @Test
  void filterAndScore_warmedUp_allocateNothing() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeThat(bean).isInstanceOf(com.sun.management.ThreadMXBean.class);
    com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
    List<Node> nodes = new ArrayList<>();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      nodes.add(node("n" + i).label("zone", "z" + (i % 3)).label("kubernetes.io/hostname", "n" + i).obj());
      pods.add(pod("e" + i).node("n" + i).label("foo", "").obj());
    }
    Cluster cluster = new Cluster(nodes, pods);
    PodTopologySpreadPlugin plugin = new PodTopologySpreadPlugin(PodTopologySpreadArgs.defaults(), () -> cluster);
    PodInfo p = PodInfos.of(pod("p").label("foo", "").spread(5, "zone", HARD, FOO)
        .spread(1, "kubernetes.io/hostname", SOFT, FOO).spread(1, "zone", SOFT, FOO).obj());
    MapCycleState state = new MapCycleState();
    plugin.preFilter(state, p, cluster);
    plugin.preScore(state, p, cluster.nodes());
    List<NodeInfo> infos = cluster.nodes();
    long sink = 0;
    for (int round = 0; round < 200; round++) {
      for (NodeInfo n : infos) {
        sink += plugin.filter(state, p, n).reasons().size() + plugin.score(state, p, n);
      }
    }
    long before = mx.getThreadAllocatedBytes(Thread.currentThread().getId());
    for (int round = 0; round < 20; round++) {
      for (NodeInfo n : infos) {
        sink += plugin.filter(state, p, n).reasons().size() + plugin.score(state, p, n);
      }
    }
    long allocated = mx.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    assertThat(sink).isPositive();
    // 12,000 calls; a few hundred bytes of slack for the measurement itself.
    assertThat(allocated).isLessThan(1024);
  }
}
