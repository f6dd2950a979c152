package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/** {@link LoadPattern#requests} and {@link LoadPattern#requestsBeyond}: the integrals of {@link LoadPattern#rateAt}. */
class LoadPatternIntegralTest {
  private static final Duration H = Duration.ofHours(1);

  @Test
  void constant_rateTimesTime_andWhatIsAboveTheCapacity() {
    LoadPattern p = LoadPattern.constant(100);
    assertThat(p.requests(Duration.ZERO, H)).isEqualTo(360_000.0);
    assertThat(p.requestsBeyond(60, Duration.ZERO, Duration.ofSeconds(10))).isEqualTo(400.0);
    assertThat(p.requestsBeyond(100, Duration.ZERO, H)).isZero();
    assertThat(p.requestsBeyond(Double.POSITIVE_INFINITY, Duration.ZERO, H)).isZero();
    assertThat(p.requests(H, H)).isZero();
  }

  @Test
  void stepAndSpike_splitAtTheirTimes() {
    LoadPattern step = LoadPattern.step(10, 50, Duration.ofSeconds(30));
    assertThat(step.requests(Duration.ZERO, Duration.ofMinutes(1))).isEqualTo(10 * 30 + 50 * 30.0);
    assertThat(step.requestsBeyond(20, Duration.ofSeconds(20), Duration.ofSeconds(40))).isEqualTo(30 * 10.0);
    LoadPattern spike = LoadPattern.spike(5, 105, Duration.ofSeconds(10), Duration.ofSeconds(5));
    assertThat(spike.requests(Duration.ZERO, Duration.ofSeconds(20))).isEqualTo(5 * 15 + 105 * 5.0);
    assertThat(spike.requestsBeyond(100, Duration.ZERO, Duration.ofSeconds(20))).isEqualTo(25.0);
  }

  @Test
  void csv_zeroBeforeTheFirstPoint_thenEachPointUntilTheNext() {
    LoadPattern p = LoadPattern.csv(List.of(new RatePoint(Duration.ofSeconds(10), 4),
        new RatePoint(Duration.ofSeconds(20), 8)));
    assertThat(p.requests(Duration.ZERO, Duration.ofSeconds(30))).isEqualTo(4 * 10 + 8 * 10.0);
    assertThat(p.requestsBeyond(6, Duration.ofSeconds(15), Duration.ofSeconds(25))).isEqualTo(2 * 5.0);
  }

  @Test
  void diurnal_aWholePeriodIsTheMeanRateTimesThePeriod_andTheArcAboveACapacityInClosedForm() {
    LoadPattern p = LoadPattern.diurnal(200, 5000, Duration.ofHours(14), LoadPattern.DAY);
    assertThat(p.requests(Duration.ZERO, Duration.ofHours(24))).isCloseTo(2600.0 * 86_400, within(1e-3));
    // above the mean (2600/s), exactly half the day: ∫ (A/2) cos over the arc = (A/2) (P/π) = 2400 · 86400 / π
    assertThat(p.requestsBeyond(2600, Duration.ZERO, Duration.ofHours(24)))
        .isCloseTo(2400.0 * 86_400 / Math.PI, within(1e-3));
    assertThat(p.requestsBeyond(5000, Duration.ZERO, Duration.ofHours(24))).isZero();
    assertThat(p.requestsBeyond(100, Duration.ZERO, H)).isCloseTo(p.requests(Duration.ZERO, H) - 100 * 3600.0,
        within(1e-6));
  }

  @Test
  void badArguments_refusedNamingTheRule() {
    LoadPattern p = LoadPattern.constant(1);
    assertThatThrownBy(() -> p.requestsBeyond(-1, Duration.ZERO, H)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("capacity -1.0 must be at least 0");
    assertThatThrownBy(() -> p.requestsBeyond(Double.NaN, Duration.ZERO, H))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be at least 0");
    assertThatThrownBy(() -> p.requests(H, Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is before its start");
  }

  /** The integral agrees with a midpoint sum of {@link LoadPattern#rateAt} over 100 ms steps. */
  @Property(tries = 300)
  void integralAgreesWithASumOfRateAt(@ForAll("patterns") LoadPattern p, @ForAll @IntRange(max = 7200) int fromS,
      @ForAll @IntRange(min = 1, max = 3600) int lengthS, @ForAll @DoubleRange(max = 6000) double capacity) {
    Duration from = Duration.ofSeconds(fromS);
    Duration to = from.plusSeconds(lengthS);
    double sum = 0;
    double sumBeyond = 0;
    for (long ms = 50; ms < lengthS * 1000L; ms += 100) {
      double r = p.rateAt(from.plusMillis(ms));
      sum += r * 0.1;
      sumBeyond += Math.max(0, r - capacity) * 0.1;
    }
    // a step inside a 100 ms slice may be off by that slice; the cosine by the midpoint rule's error
    double slack = 0.1 * Math.max(p.base(), p.peak()) * 2 + 1e-6 * sum;
    assertThat(p.requests(from, to)).isCloseTo(sum, within(slack));
    assertThat(p.requestsBeyond(capacity, from, to)).isCloseTo(sumBeyond, within(slack));
    assertThat(p.requestsBeyond(capacity, from, to)).isBetween(0.0, p.requests(from, to) + 1e-6);
  }

  /** Splitting the time anywhere splits the integral: the pieces add up. */
  @Property(tries = 300)
  void integralIsAdditive(@ForAll("patterns") LoadPattern p, @ForAll @IntRange(max = 90_000) int aS,
      @ForAll @IntRange(max = 90_000) int bS, @ForAll @IntRange(max = 90_000) int cS,
      @ForAll @DoubleRange(max = 6000) double capacity) {
    int[] t = {aS, bS, cS};
    java.util.Arrays.sort(t);
    Duration a = Duration.ofSeconds(t[0]);
    Duration b = Duration.ofSeconds(t[1]);
    Duration c = Duration.ofSeconds(t[2]);
    double whole = p.requestsBeyond(capacity, a, c);
    double parts = p.requestsBeyond(capacity, a, b) + p.requestsBeyond(capacity, b, c);
    assertThat(parts).isCloseTo(whole, within(1e-6 * Math.max(1, whole)));
  }

  @Provide
  Arbitrary<LoadPattern> patterns() {
    Arbitrary<Double> rate = Arbitraries.doubles().between(0, 5000).ofScale(1);
    Arbitrary<Duration> time = Arbitraries.integers().between(0, 7200).map(Duration::ofSeconds);
    Arbitrary<LoadPattern> constant = rate.map(LoadPattern::constant);
    Arbitrary<LoadPattern> step = Combinators.combine(rate, rate, time).as(LoadPattern::step);
    Arbitrary<LoadPattern> spike = Combinators.combine(rate, rate, time,
        Arbitraries.integers().between(1, 3600).map(Duration::ofSeconds)).as(LoadPattern::spike);
    Arbitrary<LoadPattern> diurnal = Combinators.combine(rate, rate,
        Arbitraries.integers().between(60, 86_400).map(Duration::ofSeconds)).as((lo, hi, period) ->
        LoadPattern.diurnal(Math.min(lo, hi), Math.max(lo, hi), Duration.ofSeconds(period.getSeconds() / 3), period));
    Arbitrary<LoadPattern> csv = Combinators.combine(time, rate).as(RatePoint::new).list().ofMaxSize(6)
        .map(ps -> LoadPattern.csv(ps.stream().sorted(java.util.Comparator.comparing(RatePoint::at)).toList()));
    return Arbitraries.oneOf(constant, step, spike, diurnal, csv);
  }
}
