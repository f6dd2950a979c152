package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The throughput guard of {@code ./mvnw verify}: fails when FleetKit's lead over Fenzo, measured in this JVM on the
 * same task ({@link FenzoLeadGuard}), falls below {@link FenzoLeadGuard#DEFAULT_FLOOR}; prints the measured ratio on
 * every run; the same for kube's SchedulingBasic at 5,000 nodes against {@link FenzoLeadGuard#DEFAULT_BASIC_FLOOR}.
 * Seven Fenzo batches in all (the bulk of its time), about 20 s on an idle 2-core machine.
 */
final class FenzoLeadGuardTest {

  @Test
  void fleetkitLeadOverFenzo_measuredInThisRun_staysAboveTheFloor() {
    // Two warm-up pairs (Fenzo's hot loop is compiled within its first batch of 10,000 placements; FleetKit gets its
    // eight batches of its own first) and five measured pairs: the median ignores two outliers either way.
    FenzoLeadGuard.Lead lead = FenzoLeadGuard.measure(2, 5);

    System.out.println("fenzo lead guard: " + lead.describe() + "; floors " + FenzoLeadGuard.DEFAULT_FLOOR + "x, "
        + "SchedulingBasic " + FenzoLeadGuard.DEFAULT_BASIC_FLOOR + "x");
    assertThat(lead.medianRatio())
        .as("FleetKit's lead over Fenzo in this run: %s", lead.describe())
        .isGreaterThanOrEqualTo(FenzoLeadGuard.DEFAULT_FLOOR);
    assertThat(lead.basicCpuMs()).hasSize(FenzoLeadGuard.BASIC_BATCHES);
    assertThat(lead.basicRatio())
        .as("SchedulingBasic 5000's lead over Fenzo in this run: %s", lead.describe())
        .isGreaterThanOrEqualTo(FenzoLeadGuard.DEFAULT_BASIC_FLOOR);
  }

  @Test
  void median_oddAndEven_middleValues() {
    assertThat(FenzoLeadGuard.median(new double[] {3, 1, 2})).isEqualTo(2.0);
    assertThat(FenzoLeadGuard.median(new double[] {4, 1, 3, 2})).isEqualTo(2.5);
  }
}
