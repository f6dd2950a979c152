package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
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
 * The simulation's nodes by name ({@link SimulatedCluster#slot}, {@link SimulatedCluster#hasNode},
 * {@link SimulatedCluster#nodeInfo}, {@link SimulatedCluster#size}, {@link SimulatedCluster#nodes}) against a model
 * of name to slot: through random removals, additions (new names, and names removed before, inside and outside a
 * checkpoint) and checkpoints with their rollbacks, which restore the model of the checkpoint. It fails when a
 * rollback does not give a removed node its slot back, leaves a node added since the checkpoint findable, or the
 * count of nodes goes wrong.
 */
final class SimulatedClusterNamesPropertyTest {
  @Property(tries = 300)
  void namesAndSlots_followRemovalsAdditionsAndRollbacks(@ForAll @IntRange(min = 1, max = 8) int nodeCount,
      @ForAll @IntRange(min = 1, max = 50) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<String> names = new ArrayList<>();
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < nodeCount; i++) {
      names.add("n" + i);
      nodes.add(SimulatedClusterCompactPropertyTest.node(rnd, "n" + i));
    }
    SimulatedCluster sim = SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
    sim.load(nodes, n -> List.of(), null);
    Map<String, Integer> model = new HashMap<>();
    for (int i = 0; i < nodeCount; i++) {
      model.put("n" + i, i);
    }
    Map<String, Integer> atCheckpoint = null;
    int slotsAtCheckpoint = 0;
    int slots = nodeCount;
    for (int step = 0; step < steps; step++) {
      int op = rnd.nextInt(8);
      if (op == 0) {
        if (atCheckpoint != null) {
          sim.rollback();
          model = atCheckpoint;
          slots = slotsAtCheckpoint;
          atCheckpoint = null;
        } else {
          sim.checkpoint();
          atCheckpoint = new HashMap<>(model);
          slotsAtCheckpoint = slots;
        }
      } else if (op <= 3) {
        String name = names.get(rnd.nextInt(names.size()));
        sim.removeNode(name);
        model.remove(name);
      } else {
        // a new name, or one whose node is gone (added again: a new slot)
        List<String> gone = new ArrayList<>();
        for (String n : names) {
          if (!model.containsKey(n)) {
            gone.add(n);
          }
        }
        String name = gone.isEmpty() || rnd.nextInt(3) == 0 ? "x" + names.size() : gone.get(rnd.nextInt(gone.size()));
        if (!names.contains(name)) {
          names.add(name);
        }
        sim.addNode(SimulatedClusterCompactPropertyTest.node(rnd, name));
        model.put(name, slots++);
      }
      assertThat(sim.slots()).as("step %d: slots", step).isEqualTo(slots);
      assertThat(sim.size()).as("step %d: size", step).isEqualTo(model.size());
      for (String name : names) {
        int expected = model.getOrDefault(name, -1);
        assertThat(sim.slot(name)).as("step %d: slot of %s", step, name).isEqualTo(expected);
        assertThat(sim.hasNode(name)).as("step %d: %s present", step, name).isEqualTo(expected >= 0);
        NodeInfo v = sim.nodeInfo(name);
        assertThat(v == null ? null : v.name()).as("step %d: view of %s", step, name)
            .isEqualTo(expected >= 0 ? name : null);
      }
      List<String> order = new ArrayList<>(model.keySet());
      Map<String, Integer> m = model;
      order.sort((a, b) -> Integer.compare(m.get(a), m.get(b)));
      assertThat(sim.nodes().stream().map(NodeInfo::name).toList()).as("step %d: nodes", step)
          .containsExactlyElementsOf(order);
    }
  }
}
