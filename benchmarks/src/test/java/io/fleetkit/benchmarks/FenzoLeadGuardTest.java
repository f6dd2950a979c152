package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The throughput guard of {@code ./mvnw verify}: fails when FleetKit's lead over Fenzo, measured in this JVM on the
 * same task ({@link FenzoLeadGuard}), falls below {@link FenzoLeadGuard#DEFAULT_FLOOR}; prints the measured ratio on
 * every run. About 30 s on 2 cores.
 */
final class FenzoLeadGuardTest {

  @Test
  void fleetkitLeadOverFenzo_measuredInThisRun_staysAboveTheFloor() {
    FenzoLeadGuard.Lead lead = FenzoLeadGuard.measure(4, 7);

    System.out.println("fenzo lead guard: " + lead.describe() + "; floor " + FenzoLeadGuard.DEFAULT_FLOOR + "x");
    assertThat(lead.medianRatio())
        .as("FleetKit's lead over Fenzo in this run: %s", lead.describe())
        .isGreaterThanOrEqualTo(FenzoLeadGuard.DEFAULT_FLOOR);
  }

  @Test
  void median_oddAndEven_middleValues() {
    assertThat(FenzoLeadGuard.median(new double[] {3, 1, 2})).isEqualTo(2.0);
    assertThat(FenzoLeadGuard.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
  }
}
