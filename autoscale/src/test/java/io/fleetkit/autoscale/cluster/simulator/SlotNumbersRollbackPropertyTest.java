package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The slot numbers a rollback restores from its journal (without reading the views) against the numbers the views
 * give: through random drains ({@code placeAll}), single placements, pod and node removals, added nodes, and
 * checkpoints with their rollbacks, one after another on the same simulation, every slot's numbers (pod count,
 * allocatable, summed requests, affinity flags, node object) must be those of its view after every step, and a
 * rollback must give back the views of the checkpoint. It fails when a restore takes another slot's record, keeps a
 * deferred pod's requests or the flags of the rolled-back view.
 */
final class SlotNumbersRollbackPropertyTest {
  @Property(tries = 200)
  void rollback_restoresTheNumbersOfTheCheckpointsViews(@ForAll @IntRange(min = 1, max = 10) int nodeCount,
      @ForAll @IntRange(min = 1, max = 60) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = RandomClusterSteps.nodes(rnd, nodeCount);
    List<PodInfo> pool = RandomClusterSteps.pool(rnd);
    SimulatedCluster sim = RandomClusterSteps.loaded(nodes, rnd);
    int[] names = {0};
    int[] cursor = {0};
    List<String> atCheckpoint = null;
    for (int step = 0; step < steps; step++) {
      int op = rnd.nextInt(10);
      List<NodeInfo> live = List.copyOf(sim.nodes());
      if (op <= 1) {
        if (atCheckpoint != null) {
          sim.rollback();
          assertThat(views(sim)).as("step %d: views after the rollback", step).isEqualTo(atCheckpoint);
          atCheckpoint = null;
        } else {
          sim.checkpoint();
          atCheckpoint = views(sim);
          cursor[0] = 0;
        }
      } else if (op == 2 && live.size() > 1) {
        RandomClusterSteps.removeNode(sim, live, rnd);
      } else if (op == 3) {
        sim.addNode(SimulatedClusterCompactPropertyTest.node(rnd, "x" + names[0]++));
      } else if (op == 4 && !live.isEmpty()) {
        RandomClusterSteps.removePod(sim, live, rnd);
      } else if (op <= 7) {
        RandomClusterSteps.placeSome(sim, rnd, pool, names, cursor);
      } else if (!live.isEmpty()) {
        PodInfo p = SimulatedClusterCompactPropertyTest.fresh(rnd, "f" + names[0]++);
        sim.addPod(live.get(rnd.nextInt(live.size())).name(), p);
      }
      if (rnd.nextInt(3) == 0) { // read at random moments only: a read makes the deferred placements into views
        assertThat(sim.numbersHoldViews()).as("step %d: numbers of every slot", step).isTrue();
      }
    }
    if (atCheckpoint != null) {
      sim.rollback();
      assertThat(views(sim)).isEqualTo(atCheckpoint);
    }
    assertThat(sim.numbersHoldViews()).isTrue();
  }

  private static List<String> views(SimulatedCluster sim) {
    List<String> out = new ArrayList<>();
    for (int at = 0; at < sim.slots(); at++) {
      NodeInfo n = sim.nodeInfoAt(at);
      out.add(n == null ? "none" : n.name() + " " + n.pods().stream().map(PodInfo::key).toList());
    }
    return out;
  }
}
