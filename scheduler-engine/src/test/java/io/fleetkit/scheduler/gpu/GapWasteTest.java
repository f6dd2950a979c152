package io.fleetkit.scheduler.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

final class GapWasteTest {
  /** Two typical shapes: 0.32 GPU with 4 cores (weight 3) and 0.23 GPU with 4 cores (weight 1); λ = 1. */
  private static final GapWaste TWO = GapWaste.of(new int[] {320, 230}, new long[] {4000, 4000},
      new double[] {3, 1}, 1);

  @Test
  void waste_gapNoShapeFits_isTheWholeGap() {
    assertThat(TWO.waste(120, 64_000)).isEqualTo(120);
    assertThat(TWO.waste(0, 64_000)).isZero();
  }

  @Test
  void waste_gapFilledByACommonShape_isItsRemainderPlusThePriceOfWaiting() {
    // 0.35 = 0.32 + 0.03 left; waiting for a 0.32 pod costs λ / w = 1 / (3/4)
    assertThat(TWO.waste(350, 64_000)).isCloseTo(30 + 4.0 / 3, within(1e-9));
    // 0.55 = 0.32 + 0.23 exactly: two waits
    assertThat(TWO.waste(550, 64_000)).isCloseTo(4.0 / 3 + 4, within(1e-9));
  }

  @Test
  void waste_nodeWithoutCpuForTheFillers_strandsTheGap() {
    assertThat(TWO.waste(350, 3_999)).isEqualTo(350);
    // CPU for one filler only: 0.55 takes a 0.32 (0.23 left) but no second pod
    assertThat(TWO.waste(550, 4_000)).isCloseTo(230 + 4.0 / 3, within(1e-9));
  }

  @Test
  void cost_smallShareInAGapKeptForACommonShape_costsMoreThanOnAFreshDevice() {
    // 0.32 (weight 3), 0.23 and 0.54 (weight 1 each): λ / w = 5/3 for a 0.32 pod, 5 for the others
    GapWaste three = GapWaste.of(new int[] {320, 230, 540}, new long[] {4000, 4000, 4000}, new double[] {3, 1, 1}, 1);
    double intoGap = three.cost(350, 64_000, 230, 4000); // leaves 0.12, which nothing fills
    double fresh = three.cost(1000, 64_000, 230, 4000); // leaves 0.77 = 0.54 + 0.23
    assertThat(intoGap).isCloseTo(120 - (30 + 5.0 / 3), within(1e-9));
    assertThat(fresh).isCloseTo(5 + 5, within(1e-9));
    assertThat(fresh).isLessThan(intoGap);
    assertThat(three.cost(350, 64_000, 320, 4000)).isCloseTo(30 - (30 + 5.0 / 3), within(1e-9));
  }

  @Test
  void none_everyGapIsWasted() {
    assertThat(GapWaste.none().waste(470, 100_000)).isEqualTo(470);
    assertThat(GapWaste.none().cost(1000, 100_000, 810, 3000)).isEqualTo(190);
  }

  @Test
  void of_badInput_namesTheShapeFieldAndRule() {
    assertThatThrownBy(() -> GapWaste.of(new int[] {1000}, new long[] {1}, new double[] {1}, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("GapWaste: shape 0: milli must be in 1..999, got 1000");
    assertThatThrownBy(() -> GapWaste.of(new int[] {10}, new long[] {-1}, new double[] {1}, 1))
        .hasMessage("GapWaste: shape 0: cpuMilli must be >= 0, got -1");
    assertThatThrownBy(() -> GapWaste.of(new int[] {10}, new long[] {1}, new double[] {0}, 1))
        .hasMessage("GapWaste: shape 0: weight must be positive, got 0.0");
    assertThatThrownBy(() -> GapWaste.of(new int[] {10}, new long[] {1}, new double[] {1}, -1))
        .hasMessage("GapWaste: patience must be >= 0, got -1.0");
    assertThatThrownBy(() -> GapWaste.of(new int[] {10, 20}, new long[] {1}, new double[] {1}, 1))
        .hasMessage("GapWaste: milli, cpuMilli and weight must have the same length, got 2, 1 and 1");
  }

  /** The expected waste is never negative and never more than the gap itself. */
  @Property(tries = 200)
  void waste_isBetweenZeroAndTheGap(@ForAll @IntRange(min = 0, max = 1000) int free,
      @ForAll @LongRange(min = 0, max = 200_000) long cpu) {
    double w = TWO.waste(free, cpu);
    assertThat(w).isBetween(0.0, (double) free);
  }
}
