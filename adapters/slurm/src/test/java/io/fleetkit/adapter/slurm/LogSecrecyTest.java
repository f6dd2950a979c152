package io.fleetkit.adapter.slurm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.testing.CapturedLogs;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The client's DEBUG logging (requests, retries, submissions, cancels) never contains the token. The module's tests
 * log through {@link CapturedLogs} (core-api's test jar), which keeps every line at every level; the token is also
 * registered there, so {@link SecretValuesInLogsTest} checks the whole run for it.
 */
final class LogSecrecyTest {
  private static final String JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdW4iOiJsb2dnZWQifQ.bG9nLXNlY3JldA";

  @Test
  void debugLog_requestsRetriesAndFailures_neverContainToken() throws IOException {
    CapturedLogs.registerSecret(JWT);
    CapturedLogs.registerSecret("bG9nLXNlY3JldA");
    try (FakeSlurmRestd server = new FakeSlurmRestd()) {
      server.answer(503, "").answer(200, Samples.read("job-submit-response.json"))
          .answer(200, Samples.read("job-delete-response.json"))
          .answer(500, "{\"errors\":[{\"error\":\"echo " + JWT + "\",\"error_code\":2}]}");
      SlurmClient c = SlurmClient.builder().baseUri(server.url()).token(SlurmToken.of("root", JWT))
          .retry(new SlurmRetry(3, Duration.ZERO, Duration.ZERO)).sleeper(d -> { }).build();
      c.submit(SlurmJobSpec.builder().name("logged").script("#!/bin/sh\n").environment(Map.of("T", "x")).build());
      c.cancel(2);
      assertThatThrownBy(c::ping).isInstanceOf(SlurmRejectedException.class);
      assertThat(server.requests()).allMatch(r -> r.token().equals(JWT)); // the token did go out, in the header
    }
    String log = String.join("\n", CapturedLogs.lines());
    assertThat(log).contains("retrying in").contains("submitted as 2").contains("slurm job 2 cancelled");
    assertThat(log).doesNotContain(JWT).doesNotContain("bG9nLXNlY3JldA");
  }
}
