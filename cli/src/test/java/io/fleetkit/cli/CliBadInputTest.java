package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hostile command lines and files: exit 1 with a short message naming the problem, never a stack trace. */
final class CliBadInputTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path node(Path dir) throws Exception {
    Files.writeString(dir.resolve("n.yaml"), """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status: {capacity: {cpu: "4", memory: 8Gi, pods: "110"}, allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
        """);
    return dir;
  }

  private int schedule(Path dir, String profileYaml) throws Exception {
    Path profile = Files.writeString(dir.resolve("profile.yaml"), profileYaml);
    return run("schedule", node(Files.createDirectories(dir.resolve("m"))).toString(), "--profile",
        profile.toString());
  }

  @Test
  void profile_misspelledProfilesKey_refusedNotIgnored(@TempDir Path dir) throws Exception {
    assertThat(schedule(dir, "profile:\n- schedulerName: x\n")).isEqualTo(1);
    assertThat(err.toString()).contains("profile: unknown field").doesNotContain("\tat ");
  }

  @Test
  void profile_aPodManifest_refusedNamingTheKind(@TempDir Path dir) throws Exception {
    assertThat(schedule(dir, "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n")).isEqualTo(1);
    assertThat(err.toString()).contains("kind \"Pod\" is not a scheduler configuration");
  }

  @Test
  void profile_misspelledDisabledPlugin_refusedListingThePlugins(@TempDir Path dir) throws Exception {
    assertThat(schedule(dir, """
        profiles:
        - plugins:
            multiPoint:
              disabled: [{name: TaintTolerations}]
        """)).isEqualTo(1);
    assertThat(err.toString()).contains("profiles[0].plugins.multiPoint.disabled[0].name \"TaintTolerations\" is not"
        + " a plugin of this profile").contains("TaintToleration,");
  }

  @Test
  void profile_unknownExtensionPoint_refused(@TempDir Path dir) throws Exception {
    assertThat(schedule(dir, "profiles:\n- plugins:\n    scoring: {disabled: [{name: '*'}]}\n")).isEqualTo(1);
    assertThat(err.toString()).contains("profiles[0].plugins.scoring: unknown field");
  }

  @Test
  void simulate_hugeDuration_refusedWithoutAStackTrace(@TempDir Path dir) throws Exception {
    int code = run("simulate", node(dir).toString(), "--duration", "2562047788015215h");
    assertThat(code).isNotZero();
    assertThat(err.toString()).contains("too long a duration").doesNotContain("ArithmeticException")
        .doesNotContain("\tat ");
  }

  /** {@code --duration} takes a Go duration (core-api's GoDurations); a negative one or other scripts' digits not. */
  @Test
  void durationConverter_goDurations_readAndBadOnesRefused() {
    SimulateCommand.DurationConverter c = new SimulateCommand.DurationConverter();
    assertThat(c.convert("1h30m")).isEqualTo(java.time.Duration.ofMinutes(90));
    assertThat(c.convert("1.5h")).isEqualTo(java.time.Duration.ofMinutes(90));
    assertThat(c.convert(" 90s ")).isEqualTo(java.time.Duration.ofSeconds(90));
    for (String bad : new String[] {"-5m", "\u0663m", "5", "5d", ""}) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.convert(bad)).as(bad)
          .isInstanceOf(picocli.CommandLine.TypeConversionException.class).hasMessageContaining("is not a duration");
    }
  }

  @Test
  void simulate_megabyteArgument_echoedShort(@TempDir Path dir) throws Exception {
    String huge = "9".repeat(1_000_000) + "x";
    run("simulate", node(dir).toString(), "--duration", huge);
    assertThat(err.toString().length()).isLessThan(10_000);
  }

  @Test
  void validate_megabyteName_echoedShort(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("p.yaml"), "apiVersion: v1\nkind: Node\nmetadata: {name: " + "a".repeat(1_000_000)
        + "}\n");
    assertThat(run("validate", dir.toString())).isEqualTo(1);
    assertThat(err.toString().length()).isLessThan(20_000);
  }

  @Test
  void traceOpenb_nodeListWithoutGpuNodes_messageNotStackTrace(@TempDir Path dir) throws Exception {
    Path nodes = Files.writeString(dir.resolve("n.csv"), "sn,cpu_milli,memory_mib,gpu,model\nc1,1000,10,0,\n");
    int code = run("trace", "openb", "--nodes", nodes.toString(), "--policy", "FGD");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("no GPU node").doesNotContain("\tat ");
  }
}
