package io.fleetkit.networking;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.testing.CapturedLogs;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

/**
 * No log line of this module's whole test run holds a secret value: its tests log through {@link CapturedLogs}
 * (core-api's test jar), which checks every line, at every level with its MDC and stack trace, for the test secrets;
 * this class runs last and fails on any leak, naming the lines with the values masked.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() {
    org.slf4j.LoggerFactory.getLogger(SecretValuesInLogsTest.class).debug("scanning {} lines", CapturedLogs.scanned());
    assertThat(CapturedLogs.scanned()).isPositive();
    CapturedLogs.assertNoLeaks();
  }
}
