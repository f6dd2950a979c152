package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.scheduler.DefaultPlugins;
import io.fleetkit.scheduler.PluginRegistry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * A {@code placeAll} that fails leaves the simulation as it was: two simulations of the same nodes and pods receive
 * the same random steps (checkpoints and rollbacks, node removals, single placements, drains), except that a drain
 * which fails in the first is not made in the second; every slot's view (pods in order, affinity lists, summed
 * numbers and requested list) and numbers must then be the same in both, after every step read and at the end, for
 * the compact path (deferred placements taken back without making views) and for the general path. It fails when
 * an undone deferral keeps the pod's requests or a place in its slot's list, when an undone placement leaves a view
 * whose requested list differs from the one before (zero entries of a subtraction), or when placements are undone in
 * an order that reorders a slot's pods.
 */
final class SimulatedClusterPlaceAllUndoPropertyTest {

  @Property(tries = 200)
  void failedPlaceAll_leavesTheSimulationAsItWas(@ForAll @IntRange(min = 1, max = 10) int nodeCount,
      @ForAll @IntRange(min = 1, max = 60) int steps, @ForAll boolean generalPath, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = RandomClusterSteps.nodes(rnd, nodeCount);
    List<PodInfo> pool = RandomClusterSteps.pool(rnd);
    Map<String, List<PodInfo>> loaded = new HashMap<>();
    for (Node n : nodes) {
      loaded.put(n.name(), rnd.nextBoolean()
          ? List.of(SimulatedClusterCompactPropertyTest.fresh(rnd, "l" + n.name())) : List.of());
    }
    SimulatedCluster a = cluster(generalPath);
    SimulatedCluster b = cluster(generalPath);
    a.load(nodes, loaded::get, null);
    b.load(nodes, loaded::get, null);
    int[] cursorA = {0};
    int[] cursorB = {0};
    boolean open = false;
    int names = 0;
    for (int step = 0; step < steps; step++) {
      String what = "step " + step;
      int op = rnd.nextInt(10);
      if (op == 0) {
        if (open) {
          a.rollback();
          b.rollback();
        } else {
          a.checkpoint();
          b.checkpoint();
        }
        open = !open;
      } else if (op == 1 && b.size() > 1) {
        String name = liveName(b, rnd);
        a.removeNode(name);
        b.removeNode(name);
      } else if (op == 2 && b.size() > 0) {
        String name = liveName(b, rnd);
        PodInfo p = SimulatedClusterCompactPropertyTest.fresh(rnd, "f" + names++);
        a.addPod(name, p);
        b.addPod(name, p);
      } else if (op <= 7) {
        int from = rnd.nextInt(a.slots() + 1) - 1;
        List<PodInfo> moved = new ArrayList<>();
        for (int i = 1 + rnd.nextInt(5); i > 0; i--) {
          moved.add(rnd.nextInt(3) == 0 ? SimulatedClusterCompactPropertyTest.fresh(rnd, "m" + names++)
              : pool.get(rnd.nextInt(pool.size())));
        }
        if (a.placeAll(moved, cursorA, from)) {
          assertThat(b.placeAll(moved, cursorB, from)).as(what).isTrue();
          assertThat(cursorB[0]).as(what).isEqualTo(cursorA[0]);
        } else {
          cursorB[0] = cursorA[0]; // a failed drain leaves the cursor past the last node found
        }
      } else {
        int slot = rnd.nextInt(b.slots() + 1);
        assertThat(describe(a.nodeInfoAt(slot))).as(what + ": slot " + slot).isEqualTo(describe(b.nodeInfoAt(slot)));
      }
      if (rnd.nextInt(4) == 0) { // at random moments only: reading every view makes the deferred placements
        assertThat(describe(a)).as(what).isEqualTo(describe(b));
        assertThat(a.numbersHoldViews()).as(what).isTrue();
      }
    }
    assertThat(describe(a)).isEqualTo(describe(b));
    assertThat(a.numbersHoldViews()).isTrue();
    if (open) {
      a.rollback();
      b.rollback();
      assertThat(describe(a)).isEqualTo(describe(b));
    }
  }

  private static SimulatedCluster cluster(boolean generalPath) {
    SimulatedCluster c = SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
    if (generalPath) {
      c.generalPathOnly();
    }
    return c;
  }

  /** The name of a random node of {@code sim} (reading it from the reference simulation makes only its views). */
  private static String liveName(SimulatedCluster sim, Random rnd) {
    List<NodeInfo> live = sim.nodes();
    return live.get(rnd.nextInt(live.size())).name();
  }

  private static String describe(NodeInfo n) {
    if (n == null) {
      return "none";
    }
    return n.name() + " " + n.requested() + " cpu=" + n.requestedMilliCpu() + " mem=" + n.requestedMemory()
        + " eph=" + n.requestedEphemeralStorage() + " nz=" + n.nonZeroRequestedMilliCpu() + "/"
        + n.nonZeroRequestedMemory() + " " + n.pods().stream().map(PodInfo::key).toList() + " aff="
        + n.podsWithAffinity().stream().map(PodInfo::key).toList() + " anti="
        + n.podsWithRequiredAntiAffinity().stream().map(PodInfo::key).toList();
  }

  private static List<String> describe(SimulatedCluster c) {
    List<String> out = new ArrayList<>();
    for (int slot = 0; slot < c.slots(); slot++) {
      out.add(describe(c.nodeInfoAt(slot)));
    }
    return out;
  }
}
