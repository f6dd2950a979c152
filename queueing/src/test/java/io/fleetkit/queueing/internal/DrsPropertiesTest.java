package io.fleetkit.queueing.internal;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link Drs#compare}, which sorts heads and picks target queues, is a total preorder over every share, weights of 0
 * included (a borrowing node of weight 0 above all others, ordered by its ratio among its kind), and agrees with the
 * weighted share wherever that is finite.
 */
final class DrsPropertiesTest {
  @Provide
  Arbitrary<Drs> shares() {
    Arbitrary<Double> ratio = Arbitraries.oneOf(Arbitraries.just(0.0), Arbitraries.doubles().between(0, 5000));
    Arbitrary<Long> weight = Arbitraries.oneOf(Arbitraries.just(0L), Arbitraries.longs().between(1, 5000));
    return Combinators.combine(ratio, weight).as((r, w) -> new Drs(r, w, r == 0 ? null : "cpu",
        r == 0 ? new int[0] : new int[] {0}));
  }

  @Property(tries = 500)
  void antisymmetric(@ForAll("shares") Drs a, @ForAll("shares") Drs b) {
    assertThat(Integer.signum(Drs.compare(a, b))).isEqualTo(-Integer.signum(Drs.compare(b, a)));
  }

  @Property(tries = 500)
  void transitive(@ForAll("shares") Drs a, @ForAll("shares") Drs b, @ForAll("shares") Drs c) {
    if (Drs.compare(a, b) <= 0 && Drs.compare(b, c) <= 0) {
      assertThat(Drs.compare(a, c)).isLessThanOrEqualTo(0);
    }
  }

  @Property(tries = 500)
  void zeroWeightBorrowersRankAboveTheRest(@ForAll("shares") Drs a, @ForAll("shares") Drs b) {
    boolean az = a.weightMilli() == 0 && a.unweightedRatio() != 0;
    boolean bz = b.weightMilli() == 0 && b.unweightedRatio() != 0;
    if (az && !bz) {
      assertThat(Drs.compare(a, b)).isPositive();
    }
    if (!az && !bz) {
      assertThat(Integer.signum(Drs.compare(a, b)))
          .isEqualTo(Integer.signum(Double.compare(a.weightedShare(), b.weightedShare())));
    }
  }
}
