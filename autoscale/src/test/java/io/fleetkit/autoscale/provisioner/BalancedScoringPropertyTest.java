package io.fleetkit.autoscale.provisioner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.autoscale.provisioner.BalancedScoring.PoolTotals;
import io.fleetkit.autoscale.provisioner.BalancedScoring.ScoreResult;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** Invariants of {@link BalancedScoring#scoreMove}, the rules its upstream tests show case by case. */
final class BalancedScoringPropertyTest {

  /** Scaling every cost of a pool and its move by one factor (another currency, a pool ten times larger) scores alike. */
  @Property
  void scoreIsScaleInvariant(@ForAll @DoubleRange(min = 0.01, max = 100) double savings,
      @ForAll @DoubleRange(min = 0.01, max = 100) double disruption,
      @ForAll @DoubleRange(min = 1, max = 1000) double totalCost,
      @ForAll @DoubleRange(min = 1, max = 1000) double totalDisruption,
      @ForAll @DoubleRange(min = 0.1, max = 10) double factor, @ForAll @IntRange(min = 1, max = 5) int k) {
    ScoreResult a = BalancedScoring.scoreMove(savings, disruption, new PoolTotals(totalCost, totalDisruption), k);
    ScoreResult b = BalancedScoring.scoreMove(savings * factor, disruption * factor,
        new PoolTotals(totalCost * factor, totalDisruption * factor), k);
    assertThat(b.score()).isCloseTo(a.score(), within(1e-9 * Math.max(1, a.score())));
  }

  /** A move is approved exactly when its saved share reaches its disrupted share over k (and it saves something). */
  @Property
  void approvedIffSavedShareReachesDisruptedShareOverK(
      @ForAll @DoubleRange(min = -10, max = 100) double savings,
      @ForAll @DoubleRange(min = 0.01, max = 100) double disruption,
      @ForAll @DoubleRange(min = 1, max = 1000) double totalCost,
      @ForAll @DoubleRange(min = 1, max = 1000) double totalDisruption, @ForAll @IntRange(min = 1, max = 5) int k) {
    ScoreResult r = BalancedScoring.scoreMove(savings, disruption, new PoolTotals(totalCost, totalDisruption), k);
    double saved = savings / totalCost;
    double disrupted = disruption / totalDisruption;
    if (Math.abs(saved * k - disrupted) > 1e-9) { // away from the boundary, where rounding decides
      assertThat(r.approved()).isEqualTo(saved > 0 && saved * k > disrupted);
    }
  }

  /** More savings for the same disruption never turns an approval into a rejection; more disruption never the reverse. */
  @Property
  void monotonicInSavingsAndDisruption(@ForAll @DoubleRange(min = 0, max = 100) double savings,
      @ForAll @DoubleRange(min = 0, max = 50) double moreSavings,
      @ForAll @DoubleRange(min = 0.01, max = 100) double disruption,
      @ForAll @DoubleRange(min = 0, max = 50) double moreDisruption) {
    PoolTotals totals = new PoolTotals(100, 100);
    int k = BalancedScoring.BALANCED_K;
    boolean base = BalancedScoring.scoreMove(savings, disruption, totals, k).approved();
    if (base) {
      assertThat(BalancedScoring.scoreMove(savings + moreSavings, disruption, totals, k).approved()).isTrue();
    } else {
      assertThat(BalancedScoring.scoreMove(savings, disruption + moreDisruption, totals, k).approved()).isFalse();
    }
  }
}
