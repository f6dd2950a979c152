package io.fleetkit.scheduler.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * Drawing the gaps between sampled cycles samples each cycle independently with the configured share, as kube's
 * {@code rand.Intn(100) < pluginMetricsSamplePercent} per cycle does.
 */
final class SampleGapsTest {
  /** The mean gap is the geometric distribution's, (1 - p) / p, within six standard errors. */
  @Property(tries = 60)
  void next_meanGapIsGeometric(@ForAll @IntRange(min = 1, max = 99) int percent,
      @ForAll @IntRange(min = 0, max = 1000) int seed) {
    SplittableRandom r = new SplittableRandom(seed);
    int n = 20_000;
    double sum = 0;
    for (int i = 0; i < n; i++) {
      long g = SampleGaps.next(r, percent);
      assertThat(g).isNotNegative();
      sum += g;
    }
    double p = percent / 100.0;
    double mean = (1 - p) / p;
    double standardError = Math.sqrt(1 - p) / p / Math.sqrt(n);
    assertThat(sum / n).isCloseTo(mean, org.assertj.core.data.Offset.offset(6 * standardError + 1e-9));
  }

  /**
   * Cycle by cycle as the scheduler draws them (a countdown over the gaps): 10 % of cycles are sampled, and a cycle
   * after a sampled one is sampled just as often (no dependence between neighbours), as per-cycle draws would give.
   */
  @Test
  void countdown_samplesATenthOfCycles_independentlyOfTheCycleBefore() {
    SplittableRandom r = new SplittableRandom(42);
    int cycles = 400_000;
    long until = SampleGaps.next(r, 10);
    int sampled = 0;
    int afterSampled = 0;
    int sampledAfterSampled = 0;
    boolean previous = false;
    for (int c = 0; c < cycles; c++) {
      boolean s;
      if (until > 0) {
        until--;
        s = false;
      } else {
        until = SampleGaps.next(r, 10);
        s = true;
      }
      if (s) {
        sampled++;
      }
      if (previous) {
        afterSampled++;
        if (s) {
          sampledAfterSampled++;
        }
      }
      previous = s;
    }
    // binomial standard deviations: 0.05 % of the cycles, 0.15 % of the cycles after a sampled one
    assertThat(sampled / (double) cycles).isBetween(0.097, 0.103);
    assertThat(sampledAfterSampled / (double) afterSampled).isBetween(0.09, 0.11);
  }

  @Test
  void next_percentOutside1To99_isRefused() {
    SplittableRandom r = new SplittableRandom(1);
    assertThatThrownBy(() -> SampleGaps.next(r, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("sample percent 0 must be within 1..99");
    assertThatThrownBy(() -> SampleGaps.next(r, 100)).isInstanceOf(IllegalArgumentException.class);
  }
}
