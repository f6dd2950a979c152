package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.store.ObjectStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * {@link WatchedClusterPods} kept from a watch equals grouping the store's pod list from scratch ({@link ClusterPods}
 * updated from one list): after random creates, bindings, status changes (to Running or Failed) and deletions on a
 * store that delivers as it writes, the bound, non-terminal pods of every node and the unbound, non-terminal ones are
 * the same, in key order; the bound version moves whenever a node's pods change; a node's list is the same instance
 * while its pods are unchanged.
 */
final class WatchedClusterPodsPropertyTest {
  private static final int NODES = 4;

  @Property(tries = 60)
  void current_equalsGroupingTheStoresListFromScratch(@ForAll @IntRange(min = 0, max = 20) int initial,
      @ForAll long seed) {
    Random rnd = new Random(seed);
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      int created = 0;
      for (; created < initial; created++) {
        store.create(pod(rnd, created));
      }
      try (WatchedClusterPods watched = new WatchedClusterPods(store)) {
        List<List<Pod>> lastGrouping = null;
        List<List<PodInfo>> lastInfos = null;
        long lastVersion = 0;
        for (int round = 0; round < 25; round++) {
          ClusterPods got = watched.current();
          ClusterPods expected = new ClusterPods();
          expected.update(store.list(Pod.class).items());
          List<List<Pod>> grouping = new ArrayList<>();
          List<List<PodInfo>> infos = new ArrayList<>();
          for (int n = 0; n < NODES; n++) {
            String node = "n" + n;
            assertThat(got.on(node)).as("round %d node %s", round, node).containsExactlyElementsOf(expected.on(node));
            assertThat(got.infosOn(node)).extracting(PodInfo::pod).containsExactlyElementsOf(expected.on(node));
            grouping.add(got.on(node));
            infos.add(got.infosOn(node));
          }
          assertThat(got.unbound()).as("round %d unbound", round).containsExactlyElementsOf(expected.unbound());
          if (lastGrouping != null) {
            for (int n = 0; n < NODES; n++) {
              boolean same = sameObjects(grouping.get(n), lastGrouping.get(n));
              if (!same) {
                assertThat(got.boundVersion()).as("round %d: node n%d changed", round, n).isNotEqualTo(lastVersion);
              } else if (got.boundVersion() == lastVersion) {
                assertThat(infos.get(n)).as("unchanged node: same list").isSameAs(lastInfos.get(n));
              }
            }
          }
          lastGrouping = grouping;
          lastInfos = infos;
          lastVersion = got.boundVersion();
          for (int c = rnd.nextInt(4); c > 0; c--) {
            List<Pod> all = store.list(Pod.class).items();
            int op = rnd.nextInt(4);
            if (op == 0 || all.isEmpty()) {
              store.create(pod(rnd, created++));
              continue;
            }
            Pod p = all.get(rnd.nextInt(all.size()));
            switch (op) {
              case 1 -> store.delete(Pod.class, p.metadata().namespace(), p.metadata().name());
              case 2 -> {
                if (!p.isBound()) {
                  store.updateWithStatus(p.toBuilder().nodeName("n" + rnd.nextInt(NODES)).build()); // binding
                }
              }
              default -> store.updateStatus(p.withStatus(p.status().withPhase(
                  rnd.nextBoolean() ? PodPhase.Running : PodPhase.Failed)));
            }
          }
        }
      }
    }
  }

  @Test
  void current_afterClose_fails() {
    try (ObjectStore store = ObjectStore.builder().directDelivery().build()) {
      WatchedClusterPods watched = new WatchedClusterPods(store);
      store.create(CaFixtures.pod("a", 100, 64).toBuilder().nodeName("n0").build());
      assertThat(watched.current().on("n0")).hasSize(1);
      watched.close();
      assertThatThrownBy(watched::current).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }
  }

  private static Pod pod(Random rnd, int i) {
    Pod p = CaFixtures.pod(String.format("p%03d", rnd.nextInt(200)) + "-" + i, 100, 64);
    int node = rnd.nextInt(NODES + 2);
    return node < NODES ? p.toBuilder().nodeName("n" + node).build() : p;
  }

  private static boolean sameObjects(List<Pod> a, List<Pod> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (a.get(i) != b.get(i)) {
        return false;
      }
    }
    return true;
  }
}
