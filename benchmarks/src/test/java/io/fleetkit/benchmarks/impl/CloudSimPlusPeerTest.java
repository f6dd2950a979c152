package io.fleetkit.benchmarks.impl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The CloudSim Plus side of {@code CloudSimPlusComparisonBenchmark} models the day it claims to. */
final class CloudSimPlusPeerTest {

  @Test
  void worstFit_spreadsTenPerHost_failuresLoseTheirVms_replacementsRunToTheEnd() {
    CloudSimPlusPeer.Day day = CloudSimPlusPeer.run(10, 100, Duration.ofHours(1),
        CloudSimPlusPeer.Placement.WORST_FIT);

    // ten VMs on each host: host 1 loses its ten; host 2 its ten plus the replacements placed on it after the first
    assertThat(day.lost()).isBetween(20, 30);
    assertThat(day.vms()).isEqualTo(100 + day.lost());
    assertThat(day.finished()).isEqualTo(day.vms() - day.lost());
    assertThat(day.clock()).isGreaterThanOrEqualTo(3600.0);
  }

  @Test
  void firstFit_packsTheFirstHost_soTheFailedHostsHoldNothing() {
    // 160 VMs of 100 MIPS fit a host of 16 PEs of 1,000 MIPS: first fit puts all 100 on host 0
    CloudSimPlusPeer.Day day = CloudSimPlusPeer.run(10, 100, Duration.ofHours(1),
        CloudSimPlusPeer.Placement.FIRST_FIT);

    assertThat(day.lost()).isZero();
    assertThat(day.vms()).isEqualTo(100);
    assertThat(day.finished()).isEqualTo(100);
  }

  @Test
  void fewerThanThreeHosts_refused() {
    assertThatThrownBy(() -> CloudSimPlusPeer.run(2, 10, Duration.ofHours(1), CloudSimPlusPeer.Placement.FIRST_FIT))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("hosts must be at least 3");
  }
}
