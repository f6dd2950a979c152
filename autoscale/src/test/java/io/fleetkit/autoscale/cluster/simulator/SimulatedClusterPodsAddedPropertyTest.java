package io.fleetkit.autoscale.cluster.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PodInfos;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.resource.ResourceList;
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
import org.junit.jupiter.api.Test;

/**
 * {@link SimulatedCluster#podsAddedSince} against the view read afterwards: through random drains, placements, pod and
 * node removals, added nodes, checkpoints and rollbacks, whenever it answers for a view read earlier, the node's view
 * read now must hold that view's pods followed by the answer (the same objects, in order). It fails when the answer
 * misses a pod, includes one placed before the view was read, or answers after a removal or rollback changed the node.
 */
final class SimulatedClusterPodsAddedPropertyTest {
  private static SimulatedCluster cluster() {
    return SimulatedCluster.create(DefaultPlugins.profile(), PluginRegistry.defaults(),
        Clock.fixed(Instant.parse("2026-01-01T00:00:00Z"), ZoneOffset.UTC), Map.of());
  }

  @Property(tries = 200)
  void podsAddedSince_areWhatTheViewReadNowAdds(@ForAll @IntRange(min = 1, max = 10) int nodeCount,
      @ForAll @IntRange(min = 1, max = 60) int steps, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<Node> nodes = RandomClusterSteps.nodes(rnd, nodeCount);
    List<PodInfo> pool = RandomClusterSteps.pool(rnd);
    SimulatedCluster sim = RandomClusterSteps.loaded(nodes, rnd);
    Map<Integer, NodeInfo> known = new HashMap<>();
    int[] names = {0};
    int[] cursor = {0};
    boolean open = false;
    for (int step = 0; step < steps; step++) {
      int op = rnd.nextInt(10);
      List<NodeInfo> live = List.copyOf(sim.nodes());
      if (op == 0) {
        if (open) {
          sim.rollback();
        } else {
          sim.checkpoint();
        }
        open = !open;
      } else if (op == 1 && live.size() > 1) {
        RandomClusterSteps.removeNode(sim, live, rnd);
      } else if (op == 2) {
        sim.addNode(SimulatedClusterCompactPropertyTest.node(rnd, "x" + names[0]++));
      } else if (op == 3 && !live.isEmpty()) {
        RandomClusterSteps.removePod(sim, live, rnd);
      } else if (op <= 7) {
        RandomClusterSteps.placeSome(sim, rnd, pool, names, cursor);
      } else {
        int slot = rnd.nextInt(sim.slots() + 1);
        NodeInfo v = sim.nodeInfoAt(slot);
        if (v != null) {
          known.put(slot, v);
        }
      }
      if (rnd.nextInt(3) == 0 && !known.isEmpty()) {
        int slot = new ArrayList<>(known.keySet()).get(rnd.nextInt(known.size()));
        NodeInfo then = known.get(slot);
        List<PodInfo> added = sim.podsAddedSince(slot, then);
        PodInfo marker = pod("marker"); // appended to, as a caller collecting other pods first
        List<PodInfo> appended = new ArrayList<>(List.of(marker));
        assertThat(sim.podsAddedSince(slot, then, appended)).as("step %d: slot %d", step, slot)
            .isEqualTo(added != null);
        if (added == null) {
          assertThat(appended).containsExactly(marker);
        } else {
          assertThat(appended.subList(1, appended.size())).containsExactlyElementsOf(added);
        }
        if (added != null) {
          NodeInfo now = sim.nodeInfoAt(slot);
          List<PodInfo> expected = new ArrayList<>(then.pods());
          expected.addAll(added);
          assertThat(now).as("step %d: slot %d", step, slot).isNotNull();
          assertThat(now.pods()).as("step %d: slot %d", step, slot).containsExactlyElementsOf(expected);
          known.put(slot, now);
        }
      }
    }
  }

  @Test
  void podsAddedSince_afterADrain_givesTheMovedPodsWithoutMakingTheView() {
    Node a = node("a");
    Node b = node("b");
    SimulatedCluster sim = cluster();
    sim.load(List.of(a, b), n -> List.of(), null);
    sim.checkpoint();
    NodeInfo before = sim.nodeInfoAt(1);
    List<PodInfo> moved = List.of(pod("p1"), pod("p2"));
    assertThat(sim.placeAll(moved, new int[] {1}, 0)).isTrue();
    assertThat(sim.podsAddedSince(1, before)).containsExactlyElementsOf(moved);
    assertThat(sim.podsAddedSince(0, before)).isNull();
    NodeInfo after = sim.nodeInfoAt(1);
    assertThat(after.pods()).containsExactlyElementsOf(moved);
    assertThat(sim.podsAddedSince(1, before)).as("the view was made").isNull();
    assertThat(sim.podsAddedSince(1, after)).isEmpty();
  }

  private static Node node(String name) {
    return Node.builder().name(name).capacity(ResourceList.builder().put("cpu", "4").put("memory", "8Gi")
        .put("pods", "10").build()).build();
  }

  private static PodInfo pod(String name) {
    Pod p = Pod.builder().namespace("default").name(name).uid("u-" + name).spec(PodSpec.builder()
        .container("c", "img", ResourceList.builder().put("cpu", "100m").put("memory", "64Mi").build()).build())
        .build();
    return new SimulatedClusterPreFilterReusePropertyTest.Noted(PodInfos.of(p));
  }
}
