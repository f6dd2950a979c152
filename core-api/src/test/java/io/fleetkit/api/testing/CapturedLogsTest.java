package io.fleetkit.api.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The scanner itself: a secret that reaches a log line in any form the scan looks for is reported. */
final class CapturedLogsTest {
  private static final Logger LOG = LoggerFactory.getLogger(CapturedLogsTest.class);

  @Test
  void provider_isTheOneSlf4jUses() {
    assertThat(CapturedLogs.active()).isTrue();
  }

  @Test
  void secretInMessageArgumentMdcOrStackTrace_isReported_andForgettingItClearsTheLeaks() {
    String canary = "canary-" + System.nanoTime() + "-leak";
    String other = "canary-" + System.nanoTime() + "-b64";
    CapturedLogs.registerSecret(canary);
    CapturedLogs.registerSecret(other);
    try {
      int before = CapturedLogs.leaks().size();
      assertThatThrownBy(() -> LOG.info("a line with {}", canary)).isInstanceOf(AssertionError.class)
          .hasMessageContaining("a log line holds a secret value: INFO").hasMessageContaining("<secret>")
          .hasMessageNotContaining(canary);
      CapturedLogs.whileLeaking(() -> {
        LOG.trace("connecting with password {}", canary);
        MDC.put("token", canary);
        LOG.debug("a line whose MDC holds it");
        MDC.remove("token");
        LOG.warn("request failed", new IllegalStateException("wrapper", new RuntimeException("bad token " + canary)));
        LOG.info("secret data {}", Base64.getEncoder().encodeToString(other.getBytes(StandardCharsets.UTF_8)));
        LOG.info("a harmless line");
      });
      assertThat(CapturedLogs.leaks()).hasSize(before + 5);
      assertThat(CapturedLogs.maskedLeaks()).noneMatch(l -> l.contains(canary)).anyMatch(l -> l.contains("<secret>"));
      assertThatThrownBy(CapturedLogs::assertNoLeaks).isInstanceOf(AssertionError.class)
          .hasMessageContaining("hold a secret value").hasMessageContaining("connecting with password <secret>")
          .hasMessageNotContaining(canary);
    } finally {
      CapturedLogs.forgetSecret(canary);
      CapturedLogs.forgetSecret(other);
    }
    assertThat(CapturedLogs.leaks()).noneMatch(l -> l.contains(canary) || l.contains(other));
    LOG.info("after forgetting: {}", canary);
    assertThat(CapturedLogs.leaks()).noneMatch(l -> l.contains(canary));
  }

  @Test
  void registerSecret_tooShort_isRejected() {
    assertThatThrownBy(() -> CapturedLogs.registerSecret("abc")).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too short");
  }
}
