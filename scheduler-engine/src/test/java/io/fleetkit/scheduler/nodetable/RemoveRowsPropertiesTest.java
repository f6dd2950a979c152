package io.fleetkit.scheduler.nodetable;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.NodeInfos;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * {@link NodeTable#removeRows}: after rows are removed (in rounds, with rows appended between them), the table equals
 * one filled from scratch with the remaining views in order (every column, the flags and their counts, the label
 * domains, cleared positions past the end); every moved row has a stamp never given out before; and a reader that
 * follows the change log holds the table's view at every position.
 */
final class RemoveRowsPropertiesTest {
  private static final int MAX = 24;

  @Property(tries = 300)
  void removedRows_leaveTheTableAsIfFilledFromScratch(
      @ForAll @IntRange(min = 1, max = MAX) int initial,
      @ForAll @Size(min = 1, max = 6) List<@Size(max = 8) List<@IntRange(min = 0, max = MAX - 1) Integer>> rounds,
      @ForAll @Size(min = 6, max = 6) List<@IntRange(min = 0, max = 4) Integer> appends) {
    NodeTable table = new NodeTable();
    table.domains("zone"); // registered before the rows, so that moves must carry it
    List<NodeInfo> rows = new ArrayList<>();
    int made = 0;
    table.ensureCapacity(initial);
    for (; made < initial; made++) {
      NodeInfo v = view(made);
      table.set(made, v);
      rows.add(v);
    }
    Set<Long> stamps = new HashSet<>();
    for (int i = 0; i < rows.size(); i++) {
      stamps.add(table.rowVersion(i));
    }
    LogReader reader = new LogReader();
    reader.catchUp(table);
    for (int r = 0; r < rounds.size(); r++) {
      TreeSet<Integer> picked = new TreeSet<>();
      for (int p : rounds.get(r)) {
        if (p < rows.size()) {
          picked.add(p);
        }
      }
      int[] positions = picked.stream().mapToInt(Integer::intValue).toArray();
      int oldSize = rows.size();
      table.removeRows(positions, positions.length);
      for (int j = positions.length - 1; j >= 0; j--) {
        rows.remove(positions[j]);
      }
      for (int i = positions.length == 0 ? oldSize : positions[0]; i < rows.size(); i++) {
        assertThat(stamps.add(table.rowVersion(i))).as("moved row %d has a new stamp (round %d)", i, r).isTrue();
      }
      for (int a = 0; a < appends.get(r); a++, made++) {
        NodeInfo v = view(made);
        table.ensureCapacity(rows.size() + 1);
        table.set(rows.size(), v);
        stamps.add(table.rowVersion(rows.size()));
        rows.add(v);
      }
      assertEqualsFresh(table, rows, r);
      reader.catchUp(table);
      for (int i = 0; i < table.capacity(); i++) {
        assertThat(reader.views[i]).as("log reader at %d after round %d", i, r).isSameAs(table.view(i));
      }
    }
  }

  private static void assertEqualsFresh(NodeTable table, List<NodeInfo> rows, int round) {
    NodeTable fresh = new NodeTable();
    fresh.ensureCapacity(rows.size());
    for (int i = 0; i < rows.size(); i++) {
      fresh.set(i, rows.get(i));
    }
    NodeTable.Domains za = table.domains("zone");
    NodeTable.Domains zb = fresh.domains("zone");
    for (int i = 0; i < rows.size(); i++) {
      String at = "position " + i + " after round " + round;
      assertThat(table.view(i)).as(at).isSameAs(rows.get(i));
      assertThat(table.allocatableMilliCpu(i)).as(at).isEqualTo(fresh.allocatableMilliCpu(i));
      assertThat(table.allocatableMemory(i)).as(at).isEqualTo(fresh.allocatableMemory(i));
      assertThat(table.allocatableEphemeralStorage(i)).as(at).isEqualTo(fresh.allocatableEphemeralStorage(i));
      assertThat(table.allocatablePods(i)).as(at).isEqualTo(fresh.allocatablePods(i));
      assertThat(table.requestedMilliCpu(i)).as(at).isEqualTo(fresh.requestedMilliCpu(i));
      assertThat(table.requestedMemory(i)).as(at).isEqualTo(fresh.requestedMemory(i));
      assertThat(table.requestedEphemeralStorage(i)).as(at).isEqualTo(fresh.requestedEphemeralStorage(i));
      assertThat(table.nonZeroRequestedMilliCpu(i)).as(at).isEqualTo(fresh.nonZeroRequestedMilliCpu(i));
      assertThat(table.nonZeroRequestedMemory(i)).as(at).isEqualTo(fresh.nonZeroRequestedMemory(i));
      assertThat(table.podCount(i)).as(at).isEqualTo(fresh.podCount(i));
      assertThat(table.freeMilliCpu(i)).as(at).isEqualTo(fresh.freeMilliCpu(i));
      assertThat(table.freeMemory(i)).as(at).isEqualTo(fresh.freeMemory(i));
      assertThat(table.freeEphemeralStorage(i)).as(at).isEqualTo(fresh.freeEphemeralStorage(i));
      assertThat(table.freePods(i)).as(at).isEqualTo(fresh.freePods(i));
      assertThat(table.unschedulable(i)).as(at).isEqualTo(fresh.unschedulable(i));
      assertThat(table.tainted(i)).as(at).isEqualTo(fresh.tainted(i));
      assertThat(table.hasAffinityPods(i)).as(at).isEqualTo(fresh.hasAffinityPods(i));
      assertThat(table.hasRequiredAntiAffinityPods(i)).as(at).isEqualTo(fresh.hasRequiredAntiAffinityPods(i));
      assertThat(zone(za, i)).as(at).isEqualTo(zone(zb, i));
    }
    for (int i = rows.size(); i < table.capacity(); i++) {
      assertThat(table.view(i)).as("cleared position %d after round %d", i, round).isNull();
      assertThat(za.id(i)).as("cleared position %d's zone after round %d", i, round).isEqualTo(-1);
      assertThat(table.unschedulable(i) || table.tainted(i)).as("cleared position %d's flags", i).isFalse();
    }
    assertThat(table.unschedulableCount()).as("unschedulable count after round %d", round)
        .isEqualTo(fresh.unschedulableCount());
    assertThat(table.taintedCount()).as("tainted count after round %d", round).isEqualTo(fresh.taintedCount());
  }

  private static String zone(NodeTable.Domains d, int i) {
    return d.id(i) < 0 ? "(none)" : d.value(d.id(i));
  }

  /** Views that differ in size, pods, zone (some without), taints and schedulability. */
  private static NodeInfo view(int k) {
    ResourceList a = ResourceList.builder().put("cpu", Quantity.ofMilli(1000 + 100L * k))
        .put("memory", Quantity.ofBytes(1L << (20 + k % 5))).put("pods", Quantity.of(10 + k)).build();
    Node.Builder b = Node.builder().name("n" + k).capacity(a).allocatable(a).unschedulable(k % 5 == 2);
    if (k % 4 != 3) {
      b.label("zone", "z" + (k % 3));
    }
    if (k % 3 == 1) {
      b.taint(Taint.of("dedicated", "x", TaintEffect.NoSchedule));
    }
    List<PodInfo> pods = new ArrayList<>();
    for (int p = 0; p < k % 3; p++) {
      pods.add(PodInfos.of(Pod.builder().name("p" + k + "-" + p)
          .container("c", "pause", ResourceList.ofCpuMemory(10 + p, 1 << 10)).build()));
    }
    return NodeInfos.of(b.build(), pods);
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
