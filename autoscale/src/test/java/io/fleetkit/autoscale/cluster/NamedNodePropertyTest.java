package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link ClusterAutoscaler#named} (a binary search over a store's node list, in name order) finds what a scan of the
 * list finds, for names present and absent, in name order or any other.
 */
final class NamedNodePropertyTest {
  private static final NodePool POOL = CaFixtures.pool("p", 4000, 8192, 0, 100);

  @Property(tries = 200)
  void named_findsWhatAScanFinds(@ForAll @IntRange(min = 0, max = 40) int size, @ForAll boolean shuffled,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    TreeSet<String> names = new TreeSet<>();
    while (names.size() < size) {
      names.add("n" + rnd.nextInt(100));
    }
    List<Node> nodes = new ArrayList<>();
    for (String n : names) {
      nodes.add(CaFixtures.poolNode(POOL, n));
    }
    if (shuffled) {
      Collections.shuffle(nodes, rnd);
    }
    for (int i = 0; i < 100; i++) {
      String name = "n" + i;
      Node expected = nodes.stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
      assertThat(ClusterAutoscaler.named(nodes, name)).as(name).isSameAs(expected);
    }
  }
}
