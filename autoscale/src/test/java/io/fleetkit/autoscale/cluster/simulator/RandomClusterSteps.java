package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random steps on a {@link SimulatedCluster} that its property tests share; each draws from {@code rnd} in a fixed
 * order.
 */
final class RandomClusterSteps {
  private RandomClusterSteps() {}

  /** {@code count} random nodes named {@code n000}, {@code n001}, ... */
  static List<Node> nodes(Random rnd, int count) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      nodes.add(SimulatedClusterCompactPropertyTest.node(rnd, String.format("n%03d", i)));
    }
    return nodes;
  }

  /** Eight random pods to place again and again. */
  static List<PodInfo> pool(Random rnd) {
    List<PodInfo> pool = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      pool.add(SimulatedClusterCompactPropertyTest.fresh(rnd, "s" + i));
    }
    return pool;
  }

  /** A simulation of {@code nodes} with the default profile, about half of them holding one pod. */
  static SimulatedCluster loaded(List<Node> nodes, Random rnd) {
    SimulatedCluster sim = SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
    sim.load(nodes, n -> rnd.nextBoolean() ? List.of(SimulatedClusterCompactPropertyTest.fresh(rnd, "l" + n))
        : List.of(), null);
    return sim;
  }

  /** Removes one of the {@code live} nodes. */
  static void removeNode(SimulatedCluster sim, List<NodeInfo> live, Random rnd) {
    sim.removeNode(live.get(rnd.nextInt(live.size())).name());
  }

  /** Removes one pod of one of the {@code live} nodes, when that node has any. */
  static void removePod(SimulatedCluster sim, List<NodeInfo> live, Random rnd) {
    NodeInfo n = live.get(rnd.nextInt(live.size()));
    if (!n.pods().isEmpty()) {
      sim.removePod(n.name(), n.pods().get(rnd.nextInt(n.pods().size())).key());
    }
  }

  /**
   * Places one to four pods (about a third of them new, named from {@code names}, the rest from {@code pool}),
   * searching from a random slot on.
   */
  static void placeSome(SimulatedCluster sim, Random rnd, List<PodInfo> pool, int[] names, int[] cursor) {
    List<PodInfo> moved = new ArrayList<>();
    for (int i = 1 + rnd.nextInt(4); i > 0; i--) {
      moved.add(rnd.nextInt(3) == 0 ? SimulatedClusterCompactPropertyTest.fresh(rnd, "m" + names[0]++)
          : pool.get(rnd.nextInt(pool.size())));
    }
    sim.placeAll(moved, cursor, rnd.nextInt(sim.slots() + 1) - 1);
  }
}
