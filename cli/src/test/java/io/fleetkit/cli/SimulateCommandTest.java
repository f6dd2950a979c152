package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

final class SimulateCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = new CommandLine(new FleetKitCli());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  private static Path example() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("examples/simulate"))) {
      p = p.getParent();
    }
    assertThat(p).isNotNull();
    return p.resolve("examples/simulate");
  }

  @Test
  void simulate_exampleWithTwoNodeFailuresAsJson_tenReadyAtTheEnd() {
    int code = run("simulate", example().toString(), "--duration", "15m", "--fail-node", "node-1@02:00",
        "--fail-node", "node-2@02:00", "--output", "json", "--seed", "4");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    assertThat(root.propertyNames()).contains("timeline", "final");
    JsonNode deployments = root.get("final").get("deployments");
    assertThat(deployments).hasSize(1);
    assertThat(deployments.get(0).get("name").asString()).isEqualTo("simulate/web");
    assertThat(deployments.get(0).get("replicas").asInt()).isEqualTo(10);
    assertThat(deployments.get(0).get("ready").asInt()).isEqualTo(10);
    assertThat(root.get("final").get("statefulsets").isArray()).isTrue();
    JsonNode jobs = root.get("final").get("jobs");
    assertThat(jobs).hasSize(1);
    assertThat(jobs.get(0).get("name").asString()).isEqualTo("simulate/nightly-report");
    assertThat(jobs.get(0).get("succeeded").asInt()).isEqualTo(4);
    assertThat(jobs.get(0).get("failed").asInt()).isZero();
    StringBuilder kinds = new StringBuilder();
    for (JsonNode e : root.get("timeline")) {
      kinds.append(e.get("kind").asString()).append(' ');
    }
    assertThat(kinds.toString()).contains("NodeFailed", "NodeUnreachable", "NodeTainted", "PodEvicted");
  }

  @Test
  void simulate_table_printsTimelineAndSummary() {
    int code = run("simulate", example().toString(), "--duration", "1m", "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).startsWith("TIME").contains("DeploymentStatus")
        .contains("Deployment  simulate/web  10/10 ready").doesNotContain("PodCreated");
  }

  @Test
  void simulate_sameSeedTwice_sameOutput() {
    run("simulate", example().toString(), "--duration", "6m", "--fail-node", "node-3@00:30", "--output", "json");
    String first = out.toString();
    out.getBuffer().setLength(0);
    run("simulate", example().toString(), "--duration", "6m", "--fail-node", "node-3@00:30", "--output", "json");
    assertThat(out.toString()).isEqualTo(first);
  }

  @Test
  void simulate_badFailNode_picocliErrorWithoutStackTrace() {
    int code = run("simulate", example().toString(), "--fail-node", "node-1");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--fail-node'").contains("NODE@MM:SS")
        .doesNotContain("Exception").doesNotContain("\tat ");
  }

  @Test
  void simulate_badDuration_picocliError() {
    int code = run("simulate", example().toString(), "--duration", "soon");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("Invalid value for option '--duration'").contains("1h30m")
        .doesNotContain("\tat ");
  }

  @Test
  void simulate_unknownNode_exit1WithMessage() {
    int code = run("simulate", example().toString(), "--fail-node", "nope@01:00");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("simulate: ").contains("no such node").doesNotContain("\tat ");
  }
}
