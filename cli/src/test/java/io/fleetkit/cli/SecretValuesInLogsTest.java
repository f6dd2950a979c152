package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.testing.CapturedLogs;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * No secret value reaches the CLI's output, its error messages, its metrics file or any log line of this module's
 * whole test run ({@link CapturedLogs}; this class runs last): a pod whose env holds the test secrets is scheduled with
 * {@code --metrics}, and a pod whose env entry has a misspelled field holding a secret is refused. (A value in a field
 * that is no secret, such as a malformed cpu quantity, is quoted in the error, as it should be.)
 */
@Order(Integer.MAX_VALUE)
final class SecretValuesInLogsTest {
  private static final List<String> VALUES = List.of(CapturedLogs.TEST_SECRET, CapturedLogs.TEST_TOKEN,
      CapturedLogs.TEST_CONFIG_SECRET);

  @Test
  void secretBearingManifests_noValueInOutputErrorsMetricsOrLogs(@TempDir Path dir) throws Exception {
    Path m = Files.createDirectories(dir.resolve("m"));
    Files.writeString(m.resolve("n.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}, allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
        """);
    Files.writeString(m.resolve("p.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec:
          containers:
          - name: app
            image: nginx
            env:
            - {name: DB_PASSWORD, value: %s}
            - {name: TOKEN, value: %s}
        """.formatted(CapturedLogs.TEST_SECRET, CapturedLogs.TEST_TOKEN));
    Path metrics = dir.resolve("metrics.txt");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int ok = run(out, err, "schedule", m.toString(), "--metrics", metrics.toString());
    assertThat(ok).as(err.toString()).isZero();
    assertThat(out.toString()).contains("web");

    Path bad = Files.createDirectories(dir.resolve("bad"));
    Files.writeString(bad.resolve("p.yaml"), """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec:
          containers:
          - name: app
            image: nginx
            env:
            - {name: API_KEY, value: %s, valueFromm: %s}
        """.formatted(CapturedLogs.TEST_CONFIG_SECRET, CapturedLogs.TEST_SECRET));
    StringWriter badOut = new StringWriter();
    StringWriter badErr = new StringWriter();
    assertThat(run(badOut, badErr, "schedule", bad.toString())).isEqualTo(1);
    assertThat(badErr.toString()).contains("valueFromm"); // the field is named, its value is not

    String text = out + "\n" + err + "\n" + Files.readString(metrics) + "\n" + badOut + "\n" + badErr;
    for (String v : VALUES) {
      assertThat(text).doesNotContain(v);
    }
    CapturedLogs.assertNoLeaks();
  }

  private static int run(StringWriter out, StringWriter err, String... args) {
    CommandLine cli = FleetKitCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }
}
