package io.fleetkit.networking.dns;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs the {@code dig} the system property {@code fleetkit.dig} names (set by .ci/run) against a server on
 * 127.0.0.1: the test is skipped when the property is unset and fails when dig does not run or exits non-zero.
 */
final class Dig {
  private Dig() {}

  /** dig's output lines for {@code args}, one try with a {@code timeSeconds} timeout, asking port {@code port}. */
  static List<String> run(int port, int timeSeconds, String... args) throws Exception {
    String dig = System.getProperty("fleetkit.dig", "");
    assumeTrue(!dig.isEmpty(), "fleetkit.dig not set: dig tests skipped");
    List<String> cmd = new ArrayList<>(List.of(dig, "@127.0.0.1", "-p", Integer.toString(port),
        "+time=" + timeSeconds, "+tries=1"));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    assertThat(p.waitFor(timeSeconds * 6L + 8, TimeUnit.SECONDS)).as("dig finished").isTrue();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.exitValue()).as("dig exit code, output:\n%s", out).isZero();
    return out.lines().toList();
  }
}
