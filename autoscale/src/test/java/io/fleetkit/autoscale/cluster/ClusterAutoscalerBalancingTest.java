package io.fleetkit.autoscale.cluster;

import static io.fleetkit.autoscale.cluster.CaFixtures.MI;
import static io.fleetkit.autoscale.cluster.CaFixtures.pod;
import static io.fleetkit.autoscale.cluster.CaFixtures.poolNode;
import static io.fleetkit.autoscale.cluster.CaFixtures.resources;
import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code --balance-similar-node-groups} in the autoscaler's scale-up: pools alike but for their zone share the chosen
 * option's nodes so their sizes even out (upstream's orchestrator: {@code ComputeSimilarNodeGroups}, the estimator's
 * {@code SngCapacityThreshold}, {@code BalanceScaleUpBetweenGroups}).
 */
final class ClusterAutoscalerBalancingTest {
  private static final String ZONE = "topology.kubernetes.io/zone";
  private final ManualClock clock = ManualClock.atEpoch2026();
  private final ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build();

  @AfterEach
  void close() {
    store.close();
  }

  /** A 4-core pool in {@code zone}. */
  private NodePool zonal(String name, String zone, int max) {
    NodePool p = NodePool.builder().name(name).capacity(resources(4000, 8192 * MI, 110)).nodeLabel(ZONE, zone)
        .minSize(0).maxSize(max).build();
    store.create(p);
    return p;
  }

  /** Pools a, b and c (zones a, b, c) and an otherwise equal pool with one more label, which is not similar. */
  private void pools(int maxA, int maxB, int maxC) {
    zonal("a", "a", maxA);
    zonal("b", "b", maxB);
    zonal("c", "c", maxC);
    store.create(NodePool.builder().name("special").capacity(resources(4000, 8192 * MI, 110)).nodeLabel(ZONE, "a")
        .nodeLabel("example.com/kind", "special").minSize(0).maxSize(10).build());
  }

  private void pendingPods(int n) {
    for (int i = 0; i < n; i++) {
      store.create(pod("w" + i, 3500, 512)); // one per node
    }
  }

  private ClusterAutoscaler ca(boolean balance) {
    // pool a is preferred, so the chosen option is known
    return ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .expander(Expanders.priority(Map.of(10, List.of("^a$"))))
        .options(AutoscalerOptions.defaults().withBalanceSimilarNodeGroups(balance)).build();
  }

  private long nodesOf(String pool) {
    return store.list(Node.class).items().stream()
        .filter(n -> pool.equals(n.metadata().labels().get(NodePool.POOL_LABEL))).count();
  }

  @Test
  void balanced_nodesSplitEvenly_estimateMayFillTheSimilarPools() {
    pools(2, 2, 2);
    pendingPods(6);
    LoopResult r = ca(true).runOnce();
    ScaleUpOption chosen = r.scaleUp().chosen();
    assertThat(chosen.poolName()).isEqualTo("a");
    assertThat(chosen.similarPools()).extracting(p -> p.metadata().name()).containsExactly("b", "c");
    // the estimate's room is the three pools' (upstream's SngCapacityThreshold): 6 nodes, not a's 2
    assertThat(chosen.nodeCount()).isEqualTo(6);
    assertThat(r.scaleUp().scaleUps()).containsExactly(new PoolScaleUp("a", 0, 2, 2), new PoolScaleUp("b", 0, 2, 2),
        new PoolScaleUp("c", 0, 2, 2));
    assertThat(r.launchedNodes()).hasSize(6);
    assertThat(List.of(nodesOf("a"), nodesOf("b"), nodesOf("c"), nodesOf("special"))).containsExactly(2L, 2L, 2L, 0L);
  }

  @Test
  void notBalanced_theChosenPoolAlone() {
    pools(2, 2, 2);
    pendingPods(6);
    LoopResult r = ca(false).runOnce();
    assertThat(r.scaleUp().chosen().similarPools()).isEmpty();
    assertThat(r.scaleUp().chosen().nodeCount()).isEqualTo(2);
    assertThat(r.scaleUp().scaleUps()).containsExactly(new PoolScaleUp("a", 0, 2, 2));
    assertThat(nodesOf("b")).isZero();
  }

  @Test
  void balanced_smallerPoolsGetTheNodes_maxSizesHold() {
    pools(10, 1, 10);
    NodePool a = store.require(NodePool.class, "", "a");
    // a has two full nodes already
    for (String n : List.of("a-1", "a-2")) {
      store.create(poolNode(a, n));
      store.create(pod("full-" + n, 3500, 512).toBuilder().nodeName(n).build());
    }
    pendingPods(5);
    LoopResult r = ca(true).runOnce();
    // sizes a 2, b 0 (max 1), c 0; each node to the smallest pool under its max: b (now at its max), c, c, then a
    // and c (equal sizes: the chosen pool first)
    assertThat(r.scaleUp().scaleUps()).containsExactly(new PoolScaleUp("a", 2, 3, 10), new PoolScaleUp("b", 0, 1, 1),
        new PoolScaleUp("c", 0, 3, 10));
    assertThat(r.scaleUp().newNodes()).isEqualTo(5);
  }

  @Test
  void podsOnlyOnePoolTakes_noBalancing() {
    pools(10, 10, 10);
    for (int i = 0; i < 4; i++) {
      store.create(pod("z" + i, 3500, 512).toBuilder().nodeSelector(ZONE, "a").build());
    }
    ScaleUpPlan plan = ca(true).planScaleUp();
    // b and c cannot take the pods: they are not balanced with a (the special pool is not similar anyway)
    assertThat(plan.chosen().similarPools()).isEmpty();
    assertThat(plan.scaleUps()).containsExactly(new PoolScaleUp("a", 0, 4, 10));
  }

  @Test
  void balanced_withTheCoresMaximum_capFirstThenSplit() {
    pools(10, 10, 10);
    pendingPods(6);
    ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(42)
        .expander(Expanders.priority(Map.of(10, List.of("^a$"))))
        .options(AutoscalerOptions.defaults().withBalanceSimilarNodeGroups(true).withCoresTotal(0, 17)).build();
    ScaleUpPlan plan = ca.planScaleUp();
    // 17 cores: 4 nodes of 4, split 2/1/1
    assertThat(plan.scaleUps()).containsExactly(new PoolScaleUp("a", 0, 2, 10), new PoolScaleUp("b", 0, 1, 10),
        new PoolScaleUp("c", 0, 1, 10));
  }
}
