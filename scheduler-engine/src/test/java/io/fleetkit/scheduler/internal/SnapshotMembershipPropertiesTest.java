package io.fleetkit.scheduler.internal;

import static io.fleetkit.scheduler.testing.Fixtures.node;
import static io.fleetkit.scheduler.testing.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.scheduling.Affinity;
import io.fleetkit.api.scheduling.PodAffinity;
import io.fleetkit.api.scheduling.PodAffinityTerm;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.scheduler.nodetable.NodeTable;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * A snapshot kept up to date across node additions, removals and re-additions (where {@link SchedulerCache} re-places
 * only the positions whose node or view changed) equals a snapshot built from scratch from a cache that saw the same
 * changes: the same nodes in the same order with the same pods, the same name lookups, the same table rows (hot
 * fields, flags, counts, label domains) and affinity lists; and a reader that follows the table's change log (as the
 * plugins with per-position state do) holds the table's view at every position.
 */
final class SnapshotMembershipPropertiesTest {
  private static final int NODES = 10;
  private static final int PODS = 16;
  private static final PodAffinityTerm TERM = PodAffinityTerm.of(LabelSelector.of(Map.of("app", "x")),
      "kubernetes.io/hostname");

  @Property(tries = 300)
  void incrementalSnapshotEqualsFromScratch(
      @ForAll @Size(min = 1, max = 80) List<@IntRange(min = 0, max = 6) Integer> kinds,
      @ForAll @Size(min = 80, max = 80) List<@IntRange(min = 0, max = NODES - 1) Integer> nodes,
      @ForAll @Size(min = 80, max = 80) List<@IntRange(min = 0, max = PODS - 1) Integer> pods,
      @ForAll @Size(min = 80, max = 80) List<@IntRange(min = 1, max = 6) Integer> snapshotEvery) {
    SchedulerCache incremental = new SchedulerCache(30_000_000_000L);
    SchedulerCache replay = new SchedulerCache(30_000_000_000L);
    for (int n = 0; n < NODES; n += 2) {
      incremental.putNode(variantNode("n" + n, n));
      replay.putNode(variantNode("n" + n, n));
    }
    ClusterSnapshot s = new ClusterSnapshot();
    incremental.updateSnapshot(s);
    LogReader reader = new LogReader();
    reader.catchUp(s.table);
    for (int step = 0; step < kinds.size(); step++) {
      apply(incremental, kinds.get(step), nodes.get(step), pods.get(step), step);
      apply(replay, kinds.get(step), nodes.get(step), pods.get(step), step);
      if (step % snapshotEvery.get(step) != 0 && step != kinds.size() - 1) {
        continue; // several changes between two cycles
      }
      incremental.updateSnapshot(s);
      ClusterSnapshot fresh = new ClusterSnapshot();
      replay.updateSnapshot(fresh);
      assertSame(s, fresh, step);
      reader.catchUp(s.table);
      for (int i = 0; i < s.table.capacity(); i++) {
        assertThat(reader.views[i]).as("log reader at position %d after step %d", i, step)
            .isSameAs(s.table.view(i));
      }
    }
  }

  private static void apply(SchedulerCache c, int kind, int node, int pod, int step) {
    String nodeName = "n" + node;
    String key = "default/p" + pod;
    switch (kind) {
      case 0, 1 -> { // bind (or move) a pod, with required anti-affinity for kind 1
        c.removePod(key);
        Pod p = pod("p" + pod, 10 + pod, 10).withNodeName(nodeName);
        if (kind == 1) {
          p = p.toBuilder().affinity(new Affinity(null, null, new PodAffinity(List.of(TERM), List.of()))).build();
        }
        c.addOrUpdateBoundPod(EnginePodInfo.of(p));
      }
      case 2 -> c.removePod(key);
      case 3, 4 -> c.removeNode(nodeName);
      case 5 -> c.putNode(variantNode(nodeName, node + step)); // added, re-added or updated
      default -> { // a node removed and added back between two snapshots
        c.removeNode(nodeName);
        c.putNode(variantNode(nodeName, node));
      }
    }
  }

  /** Nodes that differ in zone, taints, schedulability and size, so that every table column is exercised. */
  private static Node variantNode(String name, int variant) {
    Node base = node(name, 4_000 + 1_000L * (variant % 3), 1 << 14, 110);
    Node.Builder b = base.toBuilder().label("zone", "z" + (variant % 3)).unschedulable(variant % 5 == 4);
    if (variant % 4 == 3) {
      b.taint(Taint.of("dedicated", "x", TaintEffect.NoSchedule));
    }
    return b.build();
  }

  private static void assertSame(ClusterSnapshot s, ClusterSnapshot fresh, int step) {
    assertThat(names(s.nodes())).as("node order after step %d", step).isEqualTo(names(fresh.nodes()));
    assertThat(s.size()).isEqualTo(fresh.size());
    for (int i = 0; i < NODES; i++) {
      String name = "n" + i;
      assertThat(s.indexOf(name)).as("position of %s after step %d", name, step).isEqualTo(fresh.indexOf(name));
      assertThat(s.get(name) == null).isEqualTo(fresh.get(name) == null);
    }
    NodeTable a = s.table;
    NodeTable b = fresh.table;
    NodeTable.Domains za = a.domains("zone");
    NodeTable.Domains zb = b.domains("zone");
    for (int i = 0; i < s.size(); i++) {
      NodeInfo va = s.nodes().get(i);
      NodeInfo vb = fresh.nodes().get(i);
      assertThat(va.pods().stream().map(PodInfo::key).toList()).as("pods at %d after step %d", i, step)
          .isEqualTo(vb.pods().stream().map(PodInfo::key).toList());
      assertThat(a.requestedMilliCpu(i)).isEqualTo(b.requestedMilliCpu(i));
      assertThat(a.allocatableMilliCpu(i)).isEqualTo(b.allocatableMilliCpu(i));
      assertThat(a.freeMilliCpu(i)).isEqualTo(b.freeMilliCpu(i));
      assertThat(a.podCount(i)).isEqualTo(b.podCount(i));
      assertThat(a.unschedulable(i)).isEqualTo(b.unschedulable(i));
      assertThat(a.tainted(i)).isEqualTo(b.tainted(i));
      assertThat(a.hasRequiredAntiAffinityPods(i)).isEqualTo(b.hasRequiredAntiAffinityPods(i));
      assertThat(za.value(za.id(i))).as("zone at %d after step %d", i, step).isEqualTo(zb.value(zb.id(i)));
    }
    assertThat(a.unschedulableCount()).as("unschedulable count after step %d", step)
        .isEqualTo(b.unschedulableCount());
    assertThat(a.taintedCount()).as("tainted count after step %d", step).isEqualTo(b.taintedCount());
    assertThat(names(s.nodesWithAffinityPods())).isEqualTo(names(fresh.nodesWithAffinityPods()));
    assertThat(names(s.nodesWithRequiredAntiAffinityPods()))
        .isEqualTo(names(fresh.nodesWithRequiredAntiAffinityPods()));
  }

  private static List<String> names(List<NodeInfo> nodes) {
    return nodes.stream().map(NodeInfo::name).toList();
  }

  /** What a plugin with per-position state holds: each position's view, brought up to date from the change log. */
  private static final class LogReader {
    NodeInfo[] views = new NodeInfo[0];
    long seen = -1;

    void catchUp(NodeTable table) {
      if (views.length < table.capacity()) {
        views = java.util.Arrays.copyOf(views, table.capacity());
      }
      if (seen < table.logBase()) {
        for (int i = 0; i < table.capacity(); i++) {
          views[i] = table.view(i);
        }
      } else {
        for (long seq = seen; seq < table.logEnd(); seq++) {
          int i = table.changedAt(seq);
          views[i] = table.view(i);
        }
      }
      seen = table.logEnd();
    }
  }
}
