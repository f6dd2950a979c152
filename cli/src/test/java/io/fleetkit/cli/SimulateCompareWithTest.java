package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code fleetkit simulate DIR --compare-with FILE}: examples/cluster's shop day beside
 * examples/what-if/aggressive-scale-down.yaml (the same load and fault, other cluster autoscaler options), labels,
 * the errors of a FILE that cannot be the second scenario, and the same output for the same seed.
 */
final class SimulateCompareWithTest {
  private StringWriter out = new StringWriter();
  private StringWriter err = new StringWriter();

  private int run(String... args) {
    out = new StringWriter();
    err = new StringWriter();
    return CliHarness.run(out, err, args);
  }

  private static String cluster() {
    return CliHarness.example("cluster").toString();
  }

  private static String whatIf() {
    Path p = CliHarness.example("what-if").resolve("aggressive-scale-down.yaml");
    assertThat(p).isRegularFile();
    return p.toString();
  }

  private static Map<String, Double> figures(JsonNode comparison, String key) {
    Map<String, Double> m = new HashMap<>();
    comparison.get("figures").forEach(f -> m.put(f.get("figure").asString(), f.get(key).asDouble()));
    return m;
  }

  @Test
  void compareWith_otherAutoscalerOptions_otherFiguresLabelledByNameInJsonReportAndTable(@TempDir Path dir)
      throws Exception {
    Path report = dir.resolve("what-if.html");
    int code = run("simulate", cluster(), "--compare-with", whatIf(), "--duration", "30m", "--output", "json",
        "--quiet", "--no-pod-events", "--report", report.toString());

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = JsonMapper.builder().build().readTree(out.toString());
    JsonNode cmp = root.get("comparison");
    assertThat(cmp.get("label").asString()).isEqualTo("shop-day");
    assertThat(cmp.get("otherLabel").asString()).isEqualTo("aggressive-scale-down");
    assertThat(cmp.has("gpuPolicy")).as("GPU policy keys only for --compare-gpu-policy").isFalse();
    assertThat(root.get("scenario").asString()).isEqualTo("shop-day");
    assertThat(cmp.get("other").get("scenario").asString()).isEqualTo("aggressive-scale-down");
    // nodes removed sooner and at a higher utilisation: the same half hour costs less
    double cost = figures(cmp, "value").get("total cost");
    double otherCost = figures(cmp, "otherValue").get("total cost");
    assertThat(otherCost).isPositive().isLessThan(cost);
    // ... because it runs on fewer nodes (all pools, ready or not, summed per sample)
    assertThat(figures(cmp, "otherValue").get("mean nodes")).isPositive()
        .isLessThan(figures(cmp, "value").get("mean nodes"));
    assertThat(figures(cmp, "value").get("most nodes")).isGreaterThanOrEqualTo(figures(cmp, "value").get("mean nodes"));
    String html = Files.readString(report);
    assertThat(html).contains("<section id=\"comparison\">").contains("shop-day compared with aggressive-scale-down")
        .contains("data-chart=\"Compared: cumulative cost\"").contains("cumulative cost (aggressive-scale-down)");

    code = run("simulate", cluster(), "--compare-with", whatIf(), "--duration", "30m", "--quiet",
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("\nScenario shop-day compared with aggressive-scale-down:\n")
        .containsPattern("FIGURE +SHOP-DAY  AGGRESSIVE-SCALE-DOWN\n")
        .containsPattern(String.format(java.util.Locale.ROOT, "total cost +%.2f \\$  %.2f \\$\n", cost, otherCost));
  }

  @Test
  void compareWith_sameSeed_byteIdenticalJson_seedAndFailuresApplyToBothRuns() {
    String[] args = {"simulate", cluster(), "--compare-with", whatIf(), "--duration", "20m", "--seed", "3",
        "--fail-node", "c-2@05:00", "--output", "json", "--quiet", "--no-pod-events"};
    assertThat(run(args)).as(err.toString()).isZero();
    String first = out.toString();
    assertThat(run(args)).as(err.toString()).isZero();

    assertThat(out.toString()).isEqualTo(first);
    JsonNode root = JsonMapper.builder().build().readTree(first);
    JsonNode other = root.get("comparison").get("other");
    assertThat(root.get("seed").asLong()).isEqualTo(3);
    assertThat(other.get("seed").asLong()).isEqualTo(3);
    assertThat(other.get("simulated").asString()).isEqualTo(root.get("simulated").asString()).isEqualTo("20:00");
    for (JsonNode run : new JsonNode[] {root, other}) {
      boolean failed = false;
      for (JsonNode e : run.get("timeline")) {
        failed |= e.get("kind").asString().equals("NodeFailed") && e.get("object").asString().equals("Node/c-2");
      }
      assertThat(failed).as("--fail-node in the run of %s", run.get("scenario")).isTrue();
    }
  }

  @Test
  void compareWith_equallyNamedScenarios_labelledByTheirFiles(@TempDir Path dir) throws Exception {
    Path same = dir.resolve("same-name.yaml");
    Files.copy(CliHarness.example("cluster").resolve("scenario.yaml"), same);

    int code = run("simulate", cluster(), "--compare-with", same.toString(), "--duration", "5m", "--output", "json",
        "--quiet", "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode cmp = JsonMapper.builder().build().readTree(out.toString()).get("comparison");
    assertThat(cmp.get("label").asString())
        .isEqualTo(CliHarness.example("cluster").resolve("scenario.yaml").toString());
    assertThat(cmp.get("otherLabel").asString()).isEqualTo(same.toString());
  }

  @Test
  void compareWith_theDirectorysOwnScenarioFile_secondRunSaysSo() {
    String own = CliHarness.example("cluster").resolve("scenario.yaml").toString();

    int code = run("simulate", cluster(), "--compare-with", own, "--duration", "5m", "--output", "json", "--quiet",
        "--no-pod-events");

    assertThat(code).as(err.toString()).isZero();
    JsonNode cmp = JsonMapper.builder().build().readTree(out.toString()).get("comparison");
    assertThat(cmp.get("label").asString()).isEqualTo(own);
    assertThat(cmp.get("otherLabel").asString()).isEqualTo(own + CompareWith.SECOND_RUN);
    figures(cmp, "value").forEach((figure, v) -> assertThat(figures(cmp, "otherValue").get(figure))
        .as("%s of the same scenario twice", figure).isEqualTo(v));
  }

  private void assertRefused(String fileInMessage, String... more) {
    assertThat(err.toString()).startsWith("simulate: --compare-with " + fileInMessage + ": ").doesNotContain("\tat ")
        .doesNotContain("Exception");
    for (String m : more) {
      assertThat(err.toString()).contains(m);
    }
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void compareWith_missingFile_exit2NamingIt(@TempDir Path dir) {
    Path missing = dir.resolve("nope.yaml");

    assertThat(run("simulate", cluster(), "--compare-with", missing.toString())).isEqualTo(2);
    assertRefused(missing.toString(), "no such file");
  }

  @Test
  void compareWith_directory_exit2(@TempDir Path dir) {
    assertThat(run("simulate", cluster(), "--compare-with", dir.toString())).isEqualTo(2);
    assertRefused(dir.toString(), "not a readable file");
  }

  @Test
  void compareWith_fileWithoutScenario_exit2NamingWhatItHolds(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("node.yaml");
    Files.writeString(f, "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\n");

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(2);
    assertRefused(f.toString(), "holds no Scenario, only 1 object (1 Node)", "exactly one");
  }

  @Test
  void compareWith_emptyFile_exit2(@TempDir Path dir) throws Exception {
    Path f = Files.writeString(dir.resolve("empty.yaml"), "# nothing yet\n");

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(2);
    assertRefused(f.toString(), "holds no objects", "exactly one");
  }

  @Test
  void compareWith_twoScenarios_exit2(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("two.yaml");
    String one = Files.readString(Path.of(whatIf()));
    Files.writeString(f, one + "---\n" + one.replace("name: aggressive-scale-down", "name: second"));

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(2);
    assertRefused(f.toString(), "holds 2 Scenario objects", "exactly one");
  }

  @Test
  void compareWith_scenarioWithOtherObjects_exit2NamingTheObject(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("mixed.yaml");
    Files.writeString(f, Files.readString(Path.of(whatIf())) + "---\napiVersion: v1\nkind: Node\n"
        + "metadata: {name: extra}\n");

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(2);
    assertRefused(f.toString(), "holds Node extra besides the Scenario");
  }

  @Test
  void compareWith_invalidScenario_exit2WithTheLoadersProblem(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, Files.readString(Path.of(whatIf())).replace("scaleDownUtilizationThreshold: 0.7",
        "scaleDownUtilizationThreshold: 1.7"));

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(2);
    assertRefused(f.toString(), "spec.clusterAutoscaler.scaleDownUtilizationThreshold");
    assertThat(err.toString()).doesNotContain(f + ": " + f);
  }

  @Test
  void compareWith_scenarioNotFittingTheManifests_exit1AtItsLineBeforeEitherRuns(@TempDir Path dir)
      throws Exception {
    Path f = dir.resolve("elsewhere.yaml");
    Files.writeString(f, Files.readString(Path.of(whatIf())).replace("zoneFailure: zone-b", "zoneFailure: zone-q")
        .replace("name: web}", "name: wbe}"));

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(1);
    List<String> lines = err.toString().lines().toList();
    assertThat(lines).hasSize(2);
    assertThat(lines.get(0)).startsWith("simulate: --compare-with " + f + ": document 1 (line ")
        .contains("spec.loads[0].target \"Deployment/shop/wbe\" names no Deployment, StatefulSet or Rollout")
        .endsWith("(at line 19)");
    assertThat(lines.get(1)).contains("spec.faults[0].zoneFailure \"zone-q\" is the topology.kubernetes.io/zone"
        + " label of no node or NodePool template (zones: [zone-a, zone-b, zone-c])").endsWith("(at line 23)");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void compareWith_otherSampling_exit2SayingHowToAlign(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("short.yaml");
    Files.writeString(f, Files.readString(Path.of(whatIf())).replace("duration: 24h", "duration: 2h"));

    assertThat(run("simulate", cluster(), "--compare-with", f.toString())).isEqualTo(2);
    assertRefused(f.toString(), "runs 2h0m0s sampled every 5m0s", "shop-day runs 24h0m0s", "--duration");
  }

  @Test
  void compareWith_andCompareGpuPolicy_exit2NamingBoth() {
    int code = run("simulate", cluster(), "--compare-with", whatIf(), "--compare-gpu-policy", "FGD");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).startsWith("simulate: --compare-with and --compare-gpu-policy cannot be given together")
        .doesNotContain("\tat ");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void help_saysWhichOptionsApplyToBothRuns() {
    assertThat(run("simulate", "--help")).isZero();

    String help = out.toString().replaceAll("\\s+", " ");
    assertThat(help).contains("--compare-with=FILE.yaml")
        .contains("--duration, --seed, --fail-node, --apply and --gpu-policy apply to both runs")
        .contains("--duration, --seed, --fail-node and --apply apply to both runs");
  }
}
