package io.fleetkit.scheduler.plugins.noderesources;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Node;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link NodeResourcesFitPlugin#roomForOneMorePod} and {@link NodeResourcesFitPlugin#requestFits}, the rules that
 * callers keeping a node's numbers in their own form apply, decide exactly what the plugin's Filter decides on a node
 * view with the same numbers, for pods requesting cpu, memory and ephemeral storage (zero requests included), on nodes
 * from empty to full and over-committed.
 */
final class NodeResourcesFitRulesPropertyTest {
  @Property(tries = 400)
  void rules_onTheNodesNumbers_decideAsFilter(@ForAll("requests") long[] pod, @ForAll("requests") long[] alloc,
      @ForAll("podLists") List<long[]> existing, @ForAll("podCounts") int allocatablePods) {
    Node node = Fixtures.node("n", ResourceList.builder().put("cpu", Quantity.ofMilli(alloc[0]))
        .put("memory", Quantity.of(alloc[1]))
        .put("ephemeral-storage", Quantity.of(alloc[2]))
        .put("pods", Quantity.of(allocatablePods)).build());
    List<PodInfo> pods = new ArrayList<>();
    for (long[] e : existing) {
      pods.add(Fixtures.info(Fixtures.resource(e[0], e[1], e[2])));
    }
    NodeInfo view = Fixtures.nodeInfo(node, pods);
    PodInfo p = Fixtures.info(Fixtures.resource(pod[0], pod[1], pod[2]));
    NodeResourcesFitPlugin plugin = new NodeResourcesFitPlugin();
    CycleState state = new Fixtures.MapCycleState();
    assertThat(plugin.preFilter(state, p, null).status().isSuccess()).isTrue();
    boolean filter = plugin.filter(state, p, view).isSuccess();

    ResourceList r = p.requests();
    ResourceList a = view.allocatable();
    boolean rules = NodeResourcesFitPlugin.roomForOneMorePod(view.podCount(), a.pods())
        && NodeResourcesFitPlugin.requestFits(r.milliCpu(), a.milliCpu(), view.requestedMilliCpu())
        && NodeResourcesFitPlugin.requestFits(r.memoryBytes(), a.memoryBytes(), view.requestedMemory())
        && NodeResourcesFitPlugin.requestFits(r.ephemeralStorageBytes(), a.ephemeralStorageBytes(),
            view.requestedEphemeralStorage());
    assertThat(rules).as("rules on %s, %d pods on a node of %s", r, pods.size(), a).isEqualTo(filter);
  }

  @Provide
  Arbitrary<long[]> requests() {
    Arbitrary<Long> v = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, 8),
        Arbitraries.longs().between(1, 16_000));
    return v.array(long[].class).ofSize(3);
  }

  @Provide
  Arbitrary<List<long[]>> podLists() {
    return requests().list().ofMaxSize(6);
  }

  @Provide
  Arbitrary<Integer> podCounts() {
    return Arbitraries.integers().between(0, 8);
  }
}
