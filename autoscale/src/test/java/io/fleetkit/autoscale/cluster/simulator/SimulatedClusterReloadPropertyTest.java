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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A simulation kept between evaluations ({@link SimulatedCluster#checkpoint}, {@link SimulatedCluster#rollback},
 * {@link SimulatedCluster#reload}) against loading a new one: a rollback after random placements, pod and node
 * removals and node additions restores every view in its slot; a reload after random node removals, node object
 * changes (equal or not) and pod changes gives the nodes, views and round-robin search results of a new load of the
 * same nodes, keeps the very view of each node whose object and pods are unchanged, and refuses (changing nothing) a
 * list that adds a node.
 */
final class SimulatedClusterReloadPropertyTest {
  private static SimulatedCluster cluster() {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
  }

  private static Node node(Random rnd, String name) {
    ResourceList cap = ResourceList.builder().put("cpu", String.valueOf(1 + rnd.nextInt(4)))
        .put("memory", "8Gi").put("pods", String.valueOf(2 + rnd.nextInt(6))).build();
    return Node.builder().name(name).label("disk", rnd.nextBoolean() ? "ssd" : "hdd").capacity(cap).build();
  }

  private static PodInfo pod(Random rnd, String name, String node) {
    PodSpec.Builder spec = PodSpec.builder().container("c", "img", ResourceList.ofCpuMemory(100 + rnd.nextInt(900), 0));
    if (rnd.nextInt(4) == 0) {
      spec.nodeSelector(Map.of("disk", "ssd"));
    }
    if (!node.isEmpty()) {
      spec.nodeName(node);
    }
    return PodInfos.of(Pod.builder().namespace("default").name(name).uid("u-" + name).spec(spec.build()).build());
  }

  @Property(tries = 80)
  void rollbackAndReload_matchANewLoad(@ForAll @IntRange(min = 1, max = 12) int nodeCount,
      @ForAll @IntRange(min = 1, max = 8) int rounds, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = new ArrayList<>();
    Map<String, List<PodInfo>> podsOn = new HashMap<>();
    int names = 0;
    for (int i = 0; i < nodeCount; i++) {
      Node n = node(rnd, String.format("n%03d", i * 10));
      nodes.add(n);
      List<PodInfo> on = new ArrayList<>();
      for (int k = rnd.nextInt(3); k > 0; k--) {
        on.add(pod(rnd, "p" + names++, n.name()));
      }
      podsOn.put(n.name(), List.copyOf(on));
    }
    SimulatedCluster sim = cluster();
    sim.load(nodes, n -> podsOn.getOrDefault(n, List.of()), null);
    for (int round = 0; round < rounds; round++) {
      // an evaluation's changes, then undone
      sim.checkpoint();
      List<NodeInfo> before = List.copyOf(sim.nodes());
      List<NodeInfo> beforeSlots = new ArrayList<>();
      for (int s = 0; s < sim.slots(); s++) {
        beforeSlots.add(sim.nodeInfoAt(s));
      }
      int cursor = 0;
      for (int step = rnd.nextInt(20); step > 0; step--) {
        int what = rnd.nextInt(8);
        List<NodeInfo> live = List.copyOf(sim.nodes());
        if (what == 0 && live.size() > 1) {
          sim.removeNode(live.get(rnd.nextInt(live.size())).name());
        } else if (what == 1) {
          sim.addNode(node(rnd, "x" + names++));
        } else if (what == 2 && !live.isEmpty()) {
          NodeInfo n = live.get(rnd.nextInt(live.size()));
          if (!n.pods().isEmpty()) {
            sim.removePod(n.name(), n.pods().get(rnd.nextInt(n.pods().size())).key());
          }
        } else {
          int at = sim.findFitFrom(pod(rnd, "m" + names++, ""), cursor, rnd.nextInt(sim.slots() + 1) - 1);
          if (at >= 0) {
            sim.addPod(at, pod(rnd, "m" + names++, ""));
            cursor = at + 1;
          }
        }
      }
      sim.rollback();
      assertThat(sim.nodes()).as("round %d: nodes after rollback", round).containsExactlyElementsOf(before);
      for (int s = 0; s < beforeSlots.size(); s++) {
        assertThat(sim.nodeInfoAt(s)).as("round %d: slot %d", round, s).isSameAs(beforeSlots.get(s));
        NodeInfo v = beforeSlots.get(s);
        if (v != null) {
          assertThat(sim.nodeInfo(v.name())).isSameAs(v);
        }
      }
      assertThat(sim.slots()).isEqualTo(beforeSlots.size());
      // the cluster changes
      List<Node> next = new ArrayList<>();
      Set<String> changed = new HashSet<>();
      boolean adds = false;
      for (Node n : nodes) {
        int what = rnd.nextInt(10);
        if (what == 0 && nodes.size() > 1) {
          continue; // removed
        }
        if (what == 1) {
          next.add(n.toBuilder().build()); // a new object, equal
        } else if (what == 2) {
          next.add(n.toBuilder().label("disk", "ssd").build());
        } else if (what == 3) {
          next.add(n.toBuilder().annotation("seen", "r" + round).build()); // a change no view reads
        } else {
          next.add(n);
        }
        if (rnd.nextInt(4) == 0) {
          List<PodInfo> on = new ArrayList<>(podsOn.getOrDefault(n.name(), List.of()));
          if (!on.isEmpty() && rnd.nextBoolean()) {
            on.remove(rnd.nextInt(on.size()));
          } else {
            on.add(pod(rnd, "p" + names++, n.name()));
          }
          podsOn.put(n.name(), List.copyOf(on));
          changed.add(n.name());
        }
        if (rnd.nextInt(15) == 0) {
          next.add(node(rnd, n.name() + "a" + names++)); // added
          adds = true;
        }
      }
      if (rnd.nextInt(3) == 0) {
        changed.add("unknown"); // names that are not loaded are ignored
      }
      List<NodeInfo> loaded = List.copyOf(sim.nodes());
      boolean reloaded = sim.reload(next, n -> podsOn.getOrDefault(n, List.of()), changed);
      assertThat(reloaded).as("round %d: reload refuses exactly the lists that add a node", round).isEqualTo(!adds);
      if (!reloaded) {
        assertThat(sim.nodes()).containsExactlyElementsOf(loaded);
        sim = cluster();
        sim.load(next, n -> podsOn.getOrDefault(n, List.of()), null);
        nodes = next;
        continue;
      }
      SimulatedCluster fresh = cluster();
      fresh.load(next, n -> podsOn.getOrDefault(n, List.of()), null);
      assertThat(describe(sim)).as("round %d", round).isEqualTo(describe(fresh));
      for (NodeInfo v : loaded) {
        Node now = next.stream().filter(n -> n.name().equals(v.name())).findFirst().orElse(null);
        if (now != null && !changed.contains(v.name()) && nodes.stream().anyMatch(n -> n == now)) {
          assertThat(sim.nodeInfo(v.name())).as("round %d: unchanged node %s keeps its view", round, v.name())
              .isSameAs(v);
        }
      }
      // the round-robin search visits the nodes in the same order (placements undone, as an evaluation's)
      sim.checkpoint();
      int slotCursor = 0;
      int listCursor = 0;
      for (int i = 0; i < 6; i++) {
        PodInfo p = pod(rnd, "s" + names++, "");
        int a = sim.findFitFrom(p, slotCursor, -1);
        int b = fresh.findFitFrom(p, listCursor, -1);
        assertThat(a < 0).isEqualTo(b < 0);
        if (a < 0) {
          break;
        }
        assertThat(sim.nodeInfoAt(a).name()).as("round %d search %d", round, i)
            .isEqualTo(fresh.nodeInfoAt(b).name());
        sim.addPod(a, p);
        fresh.addPod(b, p);
        slotCursor = a + 1;
        listCursor = b + 1;
      }
      sim.rollback();
      assertThat(describe(sim)).as("round %d: after the search's rollback", round).isEqualTo(describe(cluster(next,
          podsOn)));
      nodes = next;
    }
    // a change outside a checkpoint: the simulation no longer reflects a load, and reload refuses it
    List<NodeInfo> live = List.copyOf(sim.nodes());
    if (!live.isEmpty()) {
      sim.addPod(live.get(0).name(), pod(rnd, "late", ""));
      List<String> now = describe(sim);
      assertThat(sim.reload(nodes, n -> podsOn.getOrDefault(n, List.of()), Set.of())).isFalse();
      assertThat(describe(sim)).isEqualTo(now);
    }
  }

  private static SimulatedCluster cluster(List<Node> nodes, Map<String, List<PodInfo>> podsOn) {
    SimulatedCluster c = cluster();
    c.load(nodes, n -> podsOn.getOrDefault(n, List.of()), null);
    return c;
  }

  private static List<String> describe(SimulatedCluster c) {
    List<String> out = new ArrayList<>();
    for (NodeInfo n : c.nodes()) {
      out.add(n.name() + " " + n.labels() + " " + n.allocatable() + " " + n.requested() + " "
          + n.requestedMilliCpu() + " " + n.pods().stream().map(PodInfo::key).toList());
    }
    return out;
  }
}
