package io.fleetkit.api.simulation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

final class LoadPatternTest {
  private static Duration h(long hours) {
    return Duration.ofHours(hours);
  }

  /** The constructors refuse a rate that is no finite number of requests/s at least 0, naming the field. */
  @Test
  void negativeOrNonFiniteRates_refusedNamingTheField() {
    for (double bad : new double[] {-1, -0.001, Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
      assertThatThrownBy(() -> LoadPattern.constant(bad)).as("%s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("load pattern Constant: base " + bad + " requests/s must be a finite number greater than or"
              + " equal to 0");
      assertThatThrownBy(() -> LoadPattern.step(1, bad, h(1))).as("%s", bad)
          .hasMessageStartingWith("load pattern Step: peak " + bad + " requests/s");
      assertThatThrownBy(() -> LoadPattern.spike(bad, 5, h(1), h(1))).as("%s", bad)
          .hasMessageStartingWith("load pattern Spike: base " + bad + " requests/s");
      assertThatThrownBy(() -> LoadPattern.diurnal(1, bad, h(14), LoadPattern.DAY)).as("%s", bad)
          .hasMessageStartingWith("load pattern Diurnal: peak " + bad + " requests/s");
      assertThatThrownBy(() -> new RatePoint(Duration.ofSeconds(60), bad)).as("%s", bad)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("rate point at PT1M: requestsPerSecond " + bad + " must be a finite number greater than or"
              + " equal to 0");
    }
    assertThat(LoadPattern.constant(0).rateAt(h(1))).isZero();
    assertThat(new RatePoint(Duration.ZERO, 0).requestsPerSecond()).isZero();
    assertThat(LoadPattern.step(0, Double.MAX_VALUE, h(1)).rateAt(h(2))).isEqualTo(Double.MAX_VALUE);
  }

  @Test
  void constant_sameRateAlways() {
    LoadPattern p = LoadPattern.constant(120);
    assertThat(p.rateAt(Duration.ZERO)).isEqualTo(120);
    assertThat(p.rateAt(h(30))).isEqualTo(120);
  }

  @Test
  void step_beforeThenAfterFromTheStepInstant() {
    LoadPattern p = LoadPattern.step(10, 50, Duration.ofMinutes(5));
    assertThat(p.rateAt(Duration.ofSeconds(299))).isEqualTo(10);
    assertThat(p.rateAt(Duration.ofMinutes(5))).isEqualTo(50);
    assertThat(p.rateAt(h(2))).isEqualTo(50);
  }

  @Test
  void spike_peakOnlyInsideItsWindow() {
    LoadPattern p = LoadPattern.spike(100, 900, h(1), Duration.ofMinutes(10));
    assertThat(p.rateAt(Duration.ofMinutes(59))).isEqualTo(100);
    assertThat(p.rateAt(h(1))).isEqualTo(900);
    assertThat(p.rateAt(Duration.ofMinutes(69))).isEqualTo(900);
    assertThat(p.rateAt(Duration.ofMinutes(70))).isEqualTo(100);
  }

  @Test
  void diurnal_peakAtPeakAtAndTroughHalfAPeriodLater() {
    LoadPattern p = LoadPattern.diurnal(200, 5000, h(14), LoadPattern.DAY);
    assertThat(p.rateAt(h(14))).isCloseTo(5000, within(1e-6));
    assertThat(p.rateAt(h(2))).isCloseTo(200, within(1e-6));
    assertThat(p.rateAt(h(38))).isCloseTo(5000, within(1e-6));
    assertThat(p.rateAt(h(8))).isCloseTo(2600, within(1e-6)); // a quarter period away: the midpoint
  }

  @Test
  void csv_eachRowHoldsUntilTheNextAndZeroBeforeTheFirst() {
    LoadPattern p = LoadPattern.csv(List.of(new RatePoint(Duration.ofSeconds(60), 5),
        new RatePoint(Duration.ofSeconds(120), 7.5)));
    assertThat(p.rateAt(Duration.ofSeconds(59))).isZero();
    assertThat(p.rateAt(Duration.ofSeconds(60))).isEqualTo(5);
    assertThat(p.rateAt(Duration.ofSeconds(119))).isEqualTo(5);
    assertThat(p.rateAt(Duration.ofHours(9))).isEqualTo(7.5);
  }

  @Property
  void diurnal_staysBetweenTroughAndPeak(@ForAll @DoubleRange(min = 0, max = 1e5) double trough,
      @ForAll @DoubleRange(min = 0, max = 1e5) double extra, @ForAll @LongRange(min = 0, max = 10_000_000) long ms) {
    LoadPattern p = LoadPattern.diurnal(trough, trough + extra, h(14), LoadPattern.DAY);
    double r = p.rateAt(Duration.ofMillis(ms));
    assertThat(r).isBetween(trough - 1e-6, trough + extra + 1e-6);
  }
}
