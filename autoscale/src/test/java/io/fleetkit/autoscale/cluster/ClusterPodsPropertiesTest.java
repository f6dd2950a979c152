package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.framework.PodInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link ClusterPods} updated from what changed between lists equals grouping each list from scratch: the bound,
 * non-terminal pods of each node and the unbound, non-terminal ones, in key order; its bound version moves whenever
 * a node's pods change.
 */
final class ClusterPodsPropertiesTest {
  private static final int NODES = 5;

  @Property(tries = 60)
  void update_equalsGroupingTheListFromScratch(@ForAll @IntRange(min = 0, max = 30) int initial,
      @ForAll boolean shuffled, @ForAll long seed) {
    Random rnd = new Random(seed);
    TreeMap<String, Pod> store = new TreeMap<>();
    int created = 0;
    for (; created < initial; created++) {
      Pod p = pod(rnd, created);
      store.put(p.metadata().key(), p);
    }
    ClusterPods pods = new ClusterPods();
    List<List<Pod>> lastGrouping = null;
    for (int round = 0; round < 30; round++) {
      List<Pod> list = new ArrayList<>(store.values());
      if (shuffled) { // a store that lists in another order: the same state, reached with more work
        Collections.shuffle(list, rnd);
      }
      long versionBefore = pods.boundVersion();
      pods.update(List.copyOf(list));
      List<List<Pod>> grouping = new ArrayList<>();
      for (int n = 0; n < NODES; n++) {
        String node = "n" + n;
        List<Pod> expected = store.values().stream().filter(p -> p.isBound() && !p.isTerminal()
            && p.spec().nodeName().equals(node)).toList();
        assertThat(pods.on(node)).as("round %d node %s", round, node).containsExactlyElementsOf(expected);
        assertThat(pods.infosOn(node)).extracting(PodInfo::pod).as("views").containsExactlyElementsOf(expected);
        grouping.add(expected);
      }
      assertThat(pods.unbound()).as("round %d unbound", round).containsExactlyElementsOf(store.values().stream()
          .filter(p -> !p.isBound() && !p.isTerminal()).sorted(Comparator.comparing(p -> p.metadata().key()))
          .toList());
      if (lastGrouping != null && !sameObjects(grouping, lastGrouping)) {
        assertThat(pods.boundVersion()).as("round %d: bound pods changed", round).isNotEqualTo(versionBefore);
      }
      lastGrouping = grouping;
      // change some pods: new ones, deletions, bindings, status changes (a new object under the same key)
      for (int c = rnd.nextInt(4); c > 0; c--) {
        List<Pod> all = new ArrayList<>(store.values());
        int op = rnd.nextInt(4);
        if (op == 0 || all.isEmpty()) {
          Pod p = pod(rnd, created++);
          store.put(p.metadata().key(), p);
        } else {
          Pod p = all.get(rnd.nextInt(all.size()));
          switch (op) {
            case 1 -> store.remove(p.metadata().key());
            case 2 -> store.put(p.metadata().key(), p.toBuilder().nodeName("n" + rnd.nextInt(NODES)).build());
            default -> store.put(p.metadata().key(), p.withStatus(p.status().withPhase(
                rnd.nextBoolean() ? PodPhase.Running : PodPhase.Failed)));
          }
        }
      }
    }
  }

  private static Pod pod(Random rnd, int i) {
    Pod p = CaFixtures.pod(String.format("p%03d", rnd.nextInt(200)) + "-" + i, 100, 64);
    int node = rnd.nextInt(NODES + 2);
    return node < NODES ? p.toBuilder().nodeName("n" + node).build() : p;
  }

  private static boolean sameObjects(List<List<Pod>> a, List<List<Pod>> b) {
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i).size() != b.get(i).size()) {
        return false;
      }
      for (int j = 0; j < a.get(i).size(); j++) {
        if (a.get(i).get(j) != b.get(i).get(j)) {
          return false;
        }
      }
    }
    return true;
  }
}
