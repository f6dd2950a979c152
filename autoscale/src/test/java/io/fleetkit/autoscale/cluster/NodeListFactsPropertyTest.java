package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.autoscale.cluster.simulator.SimulatedNodes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link NodeListFacts} kept from list to list against reading every node of each list: the pool sizes (nodes of the
 * pool not being deleted), the ready nodes and the starting pool nodes, through random sequences of node lists whose
 * nodes are added, removed, replaced by new objects (another pool, starting, ready, being deleted) or kept, in name
 * order (as a store lists them) or shuffled. It fails when an unchanged node's facts are taken from another node or a
 * replaced node keeps its old facts.
 */
final class NodeListFactsPropertyTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final List<String> POOLS = List.of("a", "b", "c");

  @Property(tries = 300)
  void update_givesWhatReadingEveryNodeGives(@ForAll long seed, @ForAll @IntRange(min = 1, max = 30) int steps,
      @ForAll @IntRange(min = 0, max = 3) int shuffleOneIn) {
    Random rnd = new Random(seed);
    TreeMap<String, Node> cluster = new TreeMap<>();
    for (int i = 0, n = rnd.nextInt(25); i < n; i++) {
      String name = "n" + rnd.nextInt(60);
      cluster.put(name, node(rnd, name));
    }
    NodeListFacts facts = new NodeListFacts();
    List<Node> last = null;
    for (int s = 0; s < steps; s++) {
      int changes = rnd.nextInt(4);
      for (int c = 0; c < changes; c++) {
        String name = "n" + rnd.nextInt(60);
        switch (rnd.nextInt(3)) {
          case 0 -> cluster.remove(name);
          default -> cluster.put(name, node(rnd, name));
        }
      }
      List<Node> list = new ArrayList<>(cluster.values());
      if (shuffleOneIn > 0 && rnd.nextInt(shuffleOneIn + 1) == 0) {
        Collections.shuffle(list, rnd);
      }
      if (last != null && changes == 0 && rnd.nextBoolean()) {
        list = last; // the same list object again
      }
      List<Node> readyBefore = list == last ? facts.ready() : null;
      facts.update(list);
      for (String pool : List.of("a", "b", "c", "d")) {
        long want = list.stream().filter(n -> pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL))
            && n.metadata().deletionTimestamp() == null).count();
        assertThat(facts.poolSize(pool)).as("pool %s of %s", pool, names(list)).isEqualTo(want);
      }
      List<Node> ready = list.stream().filter(n -> !SimulatedNodes.isStarting(n)).toList();
      assertThat(facts.ready()).as("ready of %s", names(list)).containsExactlyElementsOf(ready);
      assertThat(facts.ready()).isSameAs(facts.ready());
      if (readyBefore != null) {
        assertThat(facts.ready()).isSameAs(readyBefore);
      }
      List<Node> starting = list.stream().filter(n -> SimulatedNodes.isStarting(n)
          && n.metadata().labels().get(NodePool.POOL_LABEL) != null).toList();
      assertThat(facts.startingPooled()).containsExactlyElementsOf(starting);
      for (int i = 0; i < list.size(); i++) { // the elements are the list's objects, not equal copies
        Node n = list.get(i);
        if (!SimulatedNodes.isStarting(n)) {
          assertThat(facts.ready().stream().anyMatch(r -> r == n)).isTrue();
        }
      }
      last = list;
    }
  }

  /** A new node object named {@code name}: in a random pool or none, ready or starting, maybe being deleted. */
  private static Node node(Random rnd, String name) {
    int p = rnd.nextInt(POOLS.size() + 1);
    Node n;
    if (p == POOLS.size()) {
      n = Node.builder().name(name).ready().build();
    } else {
      NodePool pool = CaFixtures.pool(POOLS.get(p), 4000, 8192, 0, 100);
      n = CaFixtures.poolNode(pool, name);
      if (rnd.nextInt(3) == 0) {
        n = SimulatedNodes.launched(n, NOW, Duration.ofMinutes(2));
      }
    }
    if (rnd.nextInt(5) == 0) {
      n = n.toBuilder().metadata(n.metadata().toBuilder().deletionTimestamp(NOW).build()).build();
    }
    return Objects.requireNonNull(n);
  }

  private static List<String> names(List<Node> nodes) {
    return nodes.stream().map(Node::name).toList();
  }
}
