package io.fleetkit.autoscale.cluster.simulator;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Random steps on a {@link SimulatedCluster} that its property tests share; each draws from {@code rnd} in a fixed
 * order.
 */
final class RandomClusterSteps {
  private RandomClusterSteps() {}

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
