package io.fleetkit.autoscale.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.autoscaling.NodePool;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * {@link ClusterResourceLimits}: after {@code applyLimits} the nodes added never exceed what is left of any limited
 * resource, and one node more would (unless the request was not capped), a GPU type's maximum as the cores';
 * {@code tryDecrementBy} never takes a limit below zero.
 */
final class ClusterResourceLimitsPropertyTest {
  @Property(tries = 500)
  void applyLimits_totalsNeverExceedTheMaxima_capIsTight(@ForAll @IntRange(min = 1, max = 200) int newCount,
      @ForAll @LongRange(min = 1, max = 64) long cores, @ForAll @LongRange(min = 1, max = 1 << 20) long memory,
      @ForAll @LongRange(min = 0, max = 2000) long usedCores, @ForAll @LongRange(min = 0, max = 1L << 26) long usedMem,
      @ForAll @LongRange(min = 1, max = 4000) long maxCores, @ForAll @LongRange(min = 1, max = 1L << 27) long maxMem) {
    AutoscalerOptions o = AutoscalerOptions.defaults().withCoresTotal(0, maxCores).withMemoryTotal(0, maxMem);
    ClusterResourceLimits left = ClusterResourceLimits.scaleUpLeft(usedCores, usedMem, o);
    Map<String, Long> delta = Map.of("cpu", cores, "memory", memory);
    if (!left.exceeded(delta).isEmpty()) {
      return; // the pool is skipped: not even one node fits
    }
    int n = left.applyLimits(newCount, delta);
    assertThat(n).isBetween(1, newCount);
    assertThat(usedCores + n * cores).isLessThanOrEqualTo(Math.max(maxCores, usedCores));
    assertThat(usedMem + n * memory).isLessThanOrEqualTo(Math.max(maxMem, usedMem));
    assertThat(left.exceeded(ClusterResourceLimits.times(delta, n))).isEmpty();
    if (n < newCount) {
      assertThat(left.exceeded(ClusterResourceLimits.times(delta, n + 1))).isNotEmpty();
    }
  }

  @Property(tries = 300)
  void tryDecrementBy_neverBelowZero(@ForAll @LongRange(min = 0, max = 100) long cores,
      @ForAll @IntRange(min = 1, max = 30) int nodes, @ForAll @LongRange(min = 1, max = 16) long perNode) {
    ClusterResourceLimits left = ClusterResourceLimits.of(Map.of("cpu", cores));
    int taken = 0;
    for (int i = 0; i < nodes; i++) {
      if (left.tryDecrementBy(Map.of("cpu", perNode)).isEmpty()) {
        taken++;
      }
      assertThat(left.left().get("cpu")).isGreaterThanOrEqualTo(0);
    }
    assertThat(taken).isEqualTo((int) Math.min(nodes, cores / perNode));
  }

  @Property(tries = 300)
  void gpuMaximum_aPoolOfTheTypeIsSkippedOrCappedWithinIt_tightly(@ForAll @IntRange(min = 0, max = 20) int size,
      @ForAll @LongRange(min = 1, max = 8) long gpus, @ForAll @LongRange(min = 1, max = 100) long max,
      @ForAll @IntRange(min = 1, max = 50) int newCount) {
    NodePool pool = NodePool.builder().name("g").nodeLabel(NodePool.GPU_LABEL, "a100")
        .capacity(CaFixtures.gpuResources(8000, 1L << 30, 110, gpus)).maxSize(100).build();
    AutoscalerOptions o = AutoscalerOptions.defaults()
        .withGpuTotal(List.of(new AutoscalerOptions.GpuLimit("a100", 0, max)));
    ClusterResourceLimits left = ClusterResourceLimits.scaleUpLeft(Map.of("g", pool), p -> size, List.of(), o);
    Map<String, Long> delta = ClusterResourceLimits.deltaForPool(pool, o);
    long used = size * gpus;
    if (!left.exceeded(delta).isEmpty()) {
      assertThat(used + gpus).as("skipped only when one node would pass the maximum").isGreaterThan(max);
      return;
    }
    int n = left.applyLimits(newCount, delta);
    assertThat(n).isBetween(1, newCount);
    assertThat(used + n * gpus).isLessThanOrEqualTo(max);
    if (n < newCount) {
      assertThat(used + (n + 1) * gpus).isGreaterThan(max);
    }
  }
}
