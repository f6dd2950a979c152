package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The slot form of the round-robin search ({@link SimulatedCluster#findFitFrom(PodInfo, int, int)}) finds what the
 * list form finds on a copy of the nodes taken right after loading, with a candidate test that rejects the excluded
 * node and the removed ones: the same node at the same position, over random sequences of placements, pod removals
 * and node removals on nodes of mixed sizes and labels (some searches fail, some wrap around).
 */
final class SimulatedClusterSlotsPropertyTest {
  private static SimulatedCluster cluster() {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
  }

  @Property(tries = 60)
  void slotSearch_findsWhatTheListSearchFinds(@ForAll @IntRange(min = 1, max = 12) int nodeCount,
      @ForAll @IntRange(min = 1, max = 60) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      ResourceList cap = ResourceList.builder().put("cpu", String.valueOf(1 + rnd.nextInt(4)))
          .put("memory", "8Gi").put("pods", String.valueOf(2 + rnd.nextInt(6))).build();
      nodes.add(Node.builder().name(String.format("n%02d", i)).label("disk", rnd.nextBoolean() ? "ssd" : "hdd")
          .capacity(cap).build());
    }
    SimulatedCluster bySlot = cluster();
    SimulatedCluster byList = cluster();
    bySlot.load(nodes, List.of());
    byList.load(nodes, List.of());
    List<NodeInfo> destinations = List.copyOf(byList.nodes());
    Set<String> removed = new HashSet<>();
    int cursor = rnd.nextInt(nodeCount + 3) - 1;
    List<String[]> placed = new ArrayList<>();
    for (int step = 0; step < steps; step++) {
      int what = rnd.nextInt(10);
      if (what == 0 && removed.size() < nodeCount - 1) {
        String gone = nodes.get(rnd.nextInt(nodeCount)).name();
        removed.add(gone);
        bySlot.removeNode(gone);
        byList.removeNode(gone);
      } else if (what == 1 && !placed.isEmpty()) {
        String[] p = placed.remove(rnd.nextInt(placed.size()));
        assertThat(bySlot.removePod(bySlot.slot(p[0]), p[1])).isEqualTo(byList.removePod(p[0], p[1]));
      } else {
        String excluded = nodes.get(rnd.nextInt(nodeCount)).name();
        PodSpec.Builder spec = PodSpec.builder()
            .container("c", "img", ResourceList.ofCpuMemory(100 + rnd.nextInt(1500), 0));
        if (rnd.nextInt(4) == 0) {
          spec.nodeSelector(Map.of("disk", "ssd"));
        }
        Pod pod = Pod.builder().namespace("default").name("p" + step).uid("u" + step).spec(spec.build()).build();
        PodInfo pi = PodInfos.of(pod);
        int slotAt = bySlot.findFitFrom(pi, cursor, bySlot.slot(excluded));
        int listAt = byList.findFitFrom(pi, destinations, cursor,
            n -> !n.name().equals(excluded) && !removed.contains(n.name()));
        assertThat(slotAt).as("step %d", step).isEqualTo(listAt);
        if (slotAt >= 0) {
          String to = destinations.get(slotAt).name();
          bySlot.addPod(slotAt, pi);
          byList.addPod(to, pi);
          placed.add(new String[] {to, pi.key()});
          cursor = slotAt + 1;
        }
      }
      assertThat(describe(bySlot)).as("step %d", step).isEqualTo(describe(byList));
    }
  }

  private static List<String> describe(SimulatedCluster c) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : c.nodes()) {
      out.add(n.name() + " " + n.requested().milliCpu() + " " + n.pods().stream().map(PodInfo::key).toList());
    }
    return out;
  }
}
