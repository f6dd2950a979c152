package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.testing.CapturedLogs;
import java.time.Duration;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * No log line of this module's whole test run holds a secret value ({@link CapturedLogs}: the suite's test token,
 * and the JWTs tests register). Runs last, after a client using {@link CapturedLogs#TEST_TOKEN} is refused and fails,
 * its exceptions logged as a caller would log them.
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  @Test
  void wholeSuite_noLogLineContainsASecretValue() throws Exception {
    try (FakeSlurmRestd server = new FakeSlurmRestd()) {
      server.answer(401, "{\"errors\":[{\"error\":\"bad token\",\"error_code\":1}]}")
          .answer(500, "{\"errors\":[{\"error\":\"internal\",\"error_code\":2}]}");
      SlurmClient c = SlurmClient.builder().baseUri(server.url()).token(SlurmToken.of("root", CapturedLogs.TEST_TOKEN))
          .retry(new SlurmRetry(1, Duration.ZERO, Duration.ZERO)).sleeper(d -> { }).build();
      var log = LoggerFactory.getLogger(SecretValuesInLogsTest.class);
      assertThatThrownBy(c::ping).satisfies(e -> log.warn("slurmrestd refused the client", e));
      assertThatThrownBy(c::ping).satisfies(e -> log.warn("slurmrestd failed", e));
      assertThat(server.requests()).allMatch(r -> r.token().equals(CapturedLogs.TEST_TOKEN));
    }
    assertThat(CapturedLogs.lines()).anyMatch(l -> l.contains("slurmrestd refused the client"));
    CapturedLogs.assertNoLeaks();
  }
}
