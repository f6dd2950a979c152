package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link ScaleUpBalancing#balance}: no pool passes its max, the nodes added are the request capped by what the pools
 * can take together, and the result is balanced (no pool that could still grow is two or more nodes smaller than a
 * pool that grew).
 */
final class ScaleUpBalancingPropertyTest {
  @Property(tries = 500)
  void balance_withinMax_sumsToTheCappedRequest_balanced(@ForAll @IntRange(min = 1, max = 6) int count,
      @ForAll @IntRange(min = 0, max = 40) int newNodes, @ForAll long seed) {
    Random rnd = new Random(seed);
    List<ScaleUpBalancing.Group> groups = new ArrayList<>();
    int capacity = 0;
    for (int i = 0; i < count; i++) {
      int max = rnd.nextInt(12);
      int size = rnd.nextInt(14); // sometimes over its max
      groups.add(new ScaleUpBalancing.Group("g" + i, size, max));
      capacity += Math.max(0, max - size);
    }
    List<PoolScaleUp> ups = ScaleUpBalancing.balance(groups, newNodes);
    Map<String, Integer> newSize = new HashMap<>();
    int added = 0;
    for (PoolScaleUp u : ups) {
      assertThat(u.newSize()).isLessThanOrEqualTo(u.maxSize()).isGreaterThan(u.currentSize());
      newSize.put(u.pool(), u.newSize());
      added += u.delta();
    }
    assertThat(added).isEqualTo(Math.min(newNodes, capacity));
    int largestGrown = Integer.MIN_VALUE;
    for (PoolScaleUp u : ups) {
      largestGrown = Math.max(largestGrown, u.newSize());
    }
    for (ScaleUpBalancing.Group g : groups) {
      int size = newSize.getOrDefault(g.pool(), g.size());
      if (size < g.maxSize() && !ups.isEmpty()) {
        assertThat(size).as("%s could still grow", g.pool()).isGreaterThanOrEqualTo(largestGrown - 1);
      }
    }
  }
}
