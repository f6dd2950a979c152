package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.ManualClock;
import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/** Invariants of the cluster autoscaler over random pools, cluster contents and pod churn. */
final class ClusterAutoscalerPropertiesTest {

  @Property(tries = 15)
  void poolSizes_stayWithinMinAndMax(@ForAll @IntRange(min = 0, max = 3) int minA,
      @ForAll @IntRange(min = 0, max = 4) int extraA, @ForAll @IntRange(min = 0, max = 2) int minB,
      @ForAll @IntRange(min = 0, max = 3) int extraB, @ForAll @IntRange(min = 0, max = 30) int pods,
      @ForAll @IntRange(min = 100, max = 5000) int podCpu, @ForAll @IntRange(min = 0, max = 2) int startupMinutes,
      @ForAll long seed) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      NodePool a = CaFixtures.withDelay(CaFixtures.pool("a", 2000, 4096, minA, minA + extraA, 1.0),
          Duration.ofMinutes(startupMinutes));
      NodePool b = CaFixtures.pool("b", 8000, 16384, minB, minB + extraB, 3.0);
      store.create(a);
      store.create(b);
      java.util.Random rnd = new java.util.Random(seed);
      // start somewhere inside [min, max]
      for (NodePool p : List.of(a, b)) {
        int size = p.spec().minSize() + rnd.nextInt(p.spec().maxSize() - p.spec().minSize() + 1);
        for (int i = 0; i < size; i++) {
          store.create(CaFixtures.poolNode(p, "init-" + p.metadata().name() + "-" + i));
        }
      }
      for (int i = 0; i < pods; i++) {
        store.create(CaFixtures.pod("p" + i, podCpu, 256));
      }
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(seed)
          .expander(rnd.nextBoolean() ? Expanders.leastWaste() : Expanders.random()).build();
      for (int loop = 0; loop < 25; loop++) {
        ca.runOnce();
        for (NodePool p : List.of(a, b)) {
          long size = store.list(Node.class).items().stream()
              .filter(n -> p.metadata().name().equals(n.metadata().labels().get(NodePool.POOL_LABEL))).count();
          assertThat(size).as("pool %s after loop %d", p.metadata().name(), loop)
              .isBetween((long) p.spec().minSize(), (long) p.spec().maxSize());
        }
        // churn: pods come and go, so the autoscaler both grows and shrinks
        List<Pod> all = store.list(Pod.class).items();
        if (!all.isEmpty() && rnd.nextInt(3) == 0) {
          Pod victim = all.get(rnd.nextInt(all.size()));
          store.delete(Pod.class, victim.metadata().namespace(), victim.metadata().name());
        }
        clock.advance(Duration.ofMinutes(2));
      }
    }
  }

  /**
   * With {@code --cores-total min:max} and balancing on, over growth and shrinkage: the cluster's cores never go over
   * the maximum (from a start under it) nor under the minimum (from a start over it), and every pool stays within
   * [min, max].
   */
  @Property(tries = 10)
  void clusterCores_stayWithinCoresTotal_withBalancing(@ForAll @IntRange(min = 0, max = 3) int startA,
      @ForAll @IntRange(min = 0, max = 3) int startB, @ForAll @IntRange(min = 0, max = 2) int startC,
      @ForAll @IntRange(min = 0, max = 40) int headroom, @ForAll @IntRange(min = 0, max = 30) int pods,
      @ForAll @IntRange(min = 100, max = 3900) int podCpu, @ForAll long seed) {
    ManualClock clock = ManualClock.atEpoch2026();
    try (ObjectStore store = ObjectStore.builder().clock(clock).directDelivery().build()) {
      java.util.Random rnd = new java.util.Random(seed);
      List<NodePool> pools = List.of(zonal("a", "z1"), zonal("b", "z2"), CaFixtures.pool("c", 8000, 16384, 0, 5, 3.0));
      int[] start = {startA, startB, startC};
      long cores = 0;
      for (int p = 0; p < pools.size(); p++) {
        store.create(pools.get(p));
        for (int i = 0; i < start[p]; i++) {
          store.create(CaFixtures.poolNode(pools.get(p), "init-" + pools.get(p).metadata().name() + "-" + i));
          cores += p == 2 ? 8 : 4;
        }
      }
      long max = Math.max(1, cores + headroom); // 0 would be no maximum
      long min = cores == 0 ? 0 : rnd.nextInt((int) cores + 1);
      for (int i = 0; i < pods; i++) {
        store.create(CaFixtures.pod("p" + i, podCpu, 256));
      }
      ClusterAutoscaler ca = ClusterAutoscaler.builder(store).clock(clock).seed(seed)
          .options(AutoscalerOptions.defaults().withCoresTotal(min, max).withBalanceSimilarNodeGroups(true)).build();
      for (int loop = 0; loop < 20; loop++) {
        ca.runOnce();
        long total = 0;
        for (Node n : store.list(Node.class).items()) {
          total += ClusterResourceLimits.deltaForNode(n).get("cpu");
        }
        assertThat(total).as("cores after loop %d", loop).isBetween(min, max);
        for (NodePool p : pools) {
          long size = store.list(Node.class).items().stream()
              .filter(n -> p.metadata().name().equals(n.metadata().labels().get(NodePool.POOL_LABEL))).count();
          assertThat(size).isBetween((long) p.spec().minSize(), (long) p.spec().maxSize());
        }
        List<Pod> all = store.list(Pod.class).items();
        if (!all.isEmpty() && rnd.nextInt(3) == 0) {
          Pod victim = all.get(rnd.nextInt(all.size()));
          store.delete(Pod.class, victim.metadata().namespace(), victim.metadata().name());
        } else if (rnd.nextInt(3) == 0) {
          store.create(CaFixtures.pod("late" + loop, podCpu, 256));
        }
        clock.advance(Duration.ofMinutes(4));
      }
    }
  }

  private static NodePool zonal(String name, String zone) {
    return NodePool.builder().name(name).capacity(CaFixtures.resources(4000, 8192 * CaFixtures.MI, 110))
        .nodeLabel("topology.kubernetes.io/zone", zone).minSize(0).maxSize(6).build();
  }
}
