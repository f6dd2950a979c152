package io.fleetkit.scheduler.plugins.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The gap valuation shared by the gap-filling policies: pooled and per-model value tables, the weights discounted
 * for competing gaps, and the tied ranking every one of them normalises with.
 */
final class ShareGapsTest {
  /** A 0.65 share for any model and a 0.32 share that only V100 devices take. */
  private static final GpuWorkload M = GpuWorkload.of(List.of(
      new GpuWorkload.Shape(1000, 650, 1, List.of(), 1),
      new GpuWorkload.Shape(1000, 320, 1, List.of("V100"), 1)));

  @Test
  void perModel_gapOnlyAnotherModelsPodsFill_countsAsStranded() {
    GpuDemand d065 = new GpuDemand(0, 650, List.of());
    NodeGpu t4 = new NodeGpu(64_000, new int[] {1000}, 1000, List.of("T4"));
    NodeGpu v100 = new NodeGpu(64_000, new int[] {1000}, 1000, List.of("V100"));
    // the 0.35 left next to the 0.65 share: only the V100-only 0.32 share fills it (0.03 left, after waiting)
    double filled = 30 + 1.5 * 2;
    assertThat(ShareGaps.perModel(M).nodeCost(v100, 1000, d065)).isCloseTo(filled, within(1e-9));
    assertThat(ShareGaps.perModel(M).nodeCost(t4, 1000, d065)).isCloseTo(350, within(1e-9));
    // pooled: one table for every model, so the T4 gap counts as fillable as well
    assertThat(ShareGaps.pooled(M).nodeCost(t4, 1000, d065)).isCloseTo(filled, within(1e-9));
    // no device with room: infinite cost, no device
    NodeGpu full = new NodeGpu(64_000, new int[] {300}, 300, List.of("V100"));
    assertThat(ShareGaps.perModel(M).nodeCost(full, 1000, d065)).isInfinite();
    assertThat(ShareGaps.perModel(M).bestDevice(full, 1000, d065)).isEqualTo(-1);
  }

  @Test
  void competingWeights_discountOnlyTheLargestSizeFittingABigSharesComplement() {
    // 0.81 leaves 0.19: 0.16 (two CPU variants, 10 in all) is its filler, asked by 100 -> each variant x 10/100;
    // 0.65 leaves 0.35: 0.32 (40) is asked by 30 only -> unchanged; 0.47 is not above half a device
    int[] milli = {810, 160, 160, 650, 320, 470};
    double[] weight = {100, 6, 4, 30, 40, 50};
    double[] out = ShareGaps.competingWeights(milli, weight);
    assertThat(out).containsExactly(new double[] {100, 0.6, 0.4, 30, 40, 50}, within(1e-12));
    assertThat(weight).as("input untouched").containsExactly(100, 6, 4, 30, 40, 50);
    // nothing fits the complement (0.19 and no share of at most that): nothing changes
    assertThat(ShareGaps.competingWeights(new int[] {810, 320}, new double[] {100, 1}))
        .containsExactly(100, 1);
  }

  @Test
  void perModelCompeting_valuesAComplementFewSharesCanFillAsMostlyStranded() {
    // nine 0.81 shares to one 0.16: without competition the 0.19 left waits for the 0.16 at lambda x 10 / 1 = 15
    // (E = 30 + 15); with it the 0.16's weight is 1 / 9, its price lambda x (9 + 1/9) / (1/9) = 123 (E = 30 + 123)
    GpuWorkload m = GpuWorkload.of(List.of(
        new GpuWorkload.Shape(1000, 810, 1, List.of(), 9),
        new GpuWorkload.Shape(1000, 160, 1, List.of(), 1)));
    GpuDemand d081 = new GpuDemand(0, 810, List.of());
    NodeGpu free = new NodeGpu(64_000, new int[] {1000}, 1000, List.of("T4"));
    assertThat(ShareGaps.perModel(m).nodeCost(free, 1000, d081)).isCloseTo(30 + 1.5 * 10, within(1e-9));
    assertThat(ShareGaps.perModelCompeting(m).nodeCost(free, 1000, d081)).isCloseTo(30 + 1.5 * 82, within(1e-9));
  }

  @Test
  void rankTied_tiedByPrimary_thenKeys_thenNodeOrder() {
    GpuScorer.Candidates nodes = new GpuScorer.Candidates() {
      @Override
      public int size() {
        return 5;
      }

      @Override
      public NodeGpu node(int k) {
        throw new AssertionError("rankTied reads only the order");
      }

      @Override
      public long order(int k) {
        return 10 - k; // the last candidate comes first in the node order
      }
    };
    double[] primary = {5.0, 5.4, 9.0, Double.POSITIVE_INFINITY, 5.2};
    double[] key = {1, 2, 7, 7, 2};
    double[] key2 = {0, 0, 0, 0, 0};
    long[] scores = new long[5];
    GpuPolicies.rankTied(nodes, scores, primary, 0.5, key, key2);
    // tied: 0, 1, 4 (within 0.5 of 5.0); by key 1 and 4 (2) before 0 (1); between 1 and 4 the node order picks 4
    assertThat(scores).containsExactly(98, 99, 49, 0, 100);
  }
}
