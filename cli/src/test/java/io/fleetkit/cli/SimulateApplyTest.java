package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/** {@code fleetkit simulate --apply FILE@TIME}: a new version rolled out mid-run, and the Rollouts' final state. */
final class SimulateApplyTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path rollouts() {
    return CliHarness.example("rollouts");
  }

  /** examples/rollouts/canary.yaml with another image (and optionally another simulated error rate). */
  private static Path version(Path dir, String image, String errorRate) throws Exception {
    String yaml = Files.readString(rollouts().resolve("canary.yaml"));
    assertThat(yaml).contains("image: delivery:2", "simulate.fleetkit.io/error-rate: \"0.01\"");
    Path f = dir.resolve("web-" + image.replace(':', '-') + ".yaml");
    Files.writeString(f, yaml.replace("image: delivery:2", "image: " + image)
        .replace("simulate.fleetkit.io/error-rate: \"0.01\"", "simulate.fleetkit.io/error-rate: \"" + errorRate + "\""));
    return f;
  }

  private JsonNode json() {
    return JsonMapper.builder().build().readTree(out.toString());
  }

  private static JsonNode rollout(JsonNode root, String name) {
    for (JsonNode r : root.get("final").get("rollouts")) {
      if (r.get("name").asString().equals(name)) {
        return r;
      }
    }
    throw new AssertionError("no rollout " + name + " in " + root.get("final"));
  }

  private static List<String> timeline(JsonNode root, String object) {
    List<String> events = new ArrayList<>();
    for (JsonNode e : root.get("timeline")) {
      if (e.get("object").asString().equals(object)) {
        events.add(e.get("at").asString() + " " + e.get("kind").asString() + " " + e.get("message").asString());
      }
    }
    return events;
  }

  @Test
  void apply_newVersionAtOneMinute_canaryStepsShownAndPromoted(@TempDir Path dir) throws Exception {
    Path v3 = version(dir, "delivery:3", "0.01");

    int code = run("simulate", rollouts().toString(), "--duration", "4m", "--no-pod-events", "--output", "json",
        "--apply", v3 + "@01:00");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = json();
    JsonNode web = rollout(root, "delivery/web");
    assertThat(web.get("phase").asString()).isEqualTo("Healthy");
    List<String> events = timeline(root, "Rollout/delivery/web");
    // the first version went straight to stable
    String first = events.stream().filter(e -> e.startsWith("00:") && e.contains("Healthy")).findFirst().orElseThrow();
    String firstStable = first.substring(first.indexOf("stable ") + "stable ".length());
    assertThat(web.get("stableRevision").asString()).isNotEqualTo(firstStable).isNotEmpty();
    assertThat(web.get("canaryWeight").asInt()).isZero();
    assertThat(web.get("stableWeight").asInt()).isEqualTo(100);
    assertThat(web.get("aborted").asBoolean()).isFalse();
    assertThat(web.get("step").asInt()).isEqualTo(4); // all four steps done
    assertThat(web.get("steps").asInt()).isEqualTo(4);
    assertThat(events).anyMatch(e -> e.equals("01:00 Applied updated from " + v3));
    // the steps in order: 20%, the pause, 50%, the analysis, promotion (weight back to 0 on the new stable)
    int pause = indexOf(events, "Paused, step 1/4, weight 20%, stable " + firstStable + ": CanaryPauseStep");
    int w50 = indexOf(events, "Progressing, step 3/4, weight 50%, stable " + firstStable);
    int analysed = indexOf(events, "Progressing, step 4/4, weight 50%, stable " + firstStable);
    int promoted = indexOf(events, "Healthy, step 4/4, weight 0%, stable " + web.get("stableRevision").asString());
    assertThat(pause).isPositive().isLessThan(w50);
    assertThat(w50).isLessThan(analysed);
    assertThat(analysed).isLessThan(promoted);
    assertThat(events.get(pause)).startsWith("01:0");
    String run = "AnalysisRun/delivery/web-" + web.get("stableRevision").asString() + "-step3";
    assertThat(root.get("timeline").valueStream().filter(e -> e.get("object").asString().startsWith(run))
        .map(e -> e.get("kind").asString() + " " + e.get("message").asString()))
        .contains("AnalysisRunStatus Successful");
    // the Rollouts the file did not name are untouched; the AnalysisTemplate in it is unchanged
    assertThat(timeline(root, "AnalysisTemplate/delivery/error-rate")).containsExactly(
        "01:00 Applied unchanged from " + v3);
    assertThat(rollout(root, "delivery/api").get("phase").asString()).isEqualTo("Healthy");
  }

  private static int indexOf(List<String> events, String part) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).contains(part)) {
        return i;
      }
    }
    throw new AssertionError("no event with '" + part + "' in " + String.join("\n", events));
  }

  @Test
  void apply_failingVersion_abortedAndRolledBack(@TempDir Path dir) throws Exception {
    Path bad = version(dir, "delivery:3", "0.2");

    int code = run("simulate", rollouts().toString(), "--duration", "6m", "--no-pod-events", "--output", "json",
        "--apply", bad + "@00:30");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = json();
    JsonNode web = rollout(root, "delivery/web");
    assertThat(web.get("phase").asString()).isEqualTo("Degraded");
    assertThat(web.get("aborted").asBoolean()).isTrue();
    assertThat(web.get("canaryWeight").asInt()).isZero();
    assertThat(web.get("step").asInt()).isZero();
    assertThat(web.get("message").asString()).startsWith("RolloutAborted: AnalysisRun web-")
        .contains("Failed");
    assertThat(timeline(root, "Rollout/delivery/web")).anyMatch(e -> e.contains("RolloutStatus Degraded"));
  }

  @Test
  void apply_trafficRoutedCanary_routeWeightsInTheTimeline(@TempDir Path dir) throws Exception {
    String yaml = Files.readString(rollouts().resolve("canary-traffic.yaml"));
    assertThat(yaml).contains("image: search:1");
    Path v2 = dir.resolve("search-v2.yaml");
    Files.writeString(v2, yaml.replace("image: search:1", "image: search:2"));

    int code = run("simulate", rollouts().toString(), "--duration", "3m", "--no-pod-events", "--output", "json",
        "--apply", v2 + "@00:30");

    assertThat(code).as(err.toString()).isZero();
    JsonNode root = json();
    assertThat(timeline(root, "HTTPRoute/delivery/search")).extracting(e -> e.substring(e.indexOf(' ') + 1))
        .filteredOn(e -> !e.startsWith("Applied unchanged")).containsExactly("RouteWeights search-stable 90, search-canary 10",
            "RouteWeights search-stable 50, search-canary 50",
            "RouteWeights search-stable 0, search-canary 100",
            "RouteWeights search-stable 100, search-canary 0");
    JsonNode search = rollout(root, "delivery/search");
    assertThat(search.get("phase").asString()).isEqualTo("Healthy");
    assertThat(search.get("canaryWeight").asInt()).isZero();
    assertThat(timeline(root, "Rollout/delivery/search")).anyMatch(e -> e.contains("Paused, step 1/4, weight 10%"))
        .anyMatch(e -> e.contains("Paused, step 3/4, weight 50%"));
  }

  @Test
  void apply_table_listsRollouts(@TempDir Path dir) throws Exception {
    Path v3 = version(dir, "delivery:3", "0.01");

    int code = run("simulate", rollouts().toString(), "--duration", "2m", "--no-pod-events",
        "--apply", v3 + "@01:00");

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString()).contains("Applied").contains("Rollout     delivery/web  ")
        .contains("Rollout     delivery/checkout  ");
    // the step as kubectl argo rollouts get rollout shows it (Step: 1/4), not a bare index; none for a blue-green
    assertThat(out.toString()).containsPattern("Rollout     delivery/web  [A-Za-z]+, step [0-4]/4, canary weight [0-9]+%, ")
        .containsPattern("Rollout     delivery/checkout  Healthy, canary weight ")
        .doesNotContain(" at step ");
  }

  @Test
  void apply_sameRunTwice_sameBytes(@TempDir Path dir) throws Exception {
    Path v3 = version(dir, "delivery:3", "0.01");
    String[] args = {"simulate", rollouts().toString(), "--duration", "3m", "--output", "json", "--apply",
        v3 + "@00:20"};
    assertThat(run(args)).isZero();
    String first = out.toString();
    out.getBuffer().setLength(0);
    assertThat(run(args)).isZero();
    assertThat(out.toString()).isEqualTo(first);
    // the same time as H:MM:SS and as a duration: the same run
    for (String at : List.of("0:00:20", "20s")) {
      out.getBuffer().setLength(0);
      args[args.length - 1] = v3 + "@" + at;
      assertThat(run(args)).as(at).isZero();
      assertThat(out.toString()).as(at).isEqualTo(first);
    }
  }

  @Test
  void apply_withoutTime_exit2NamingTheForm() {
    int code = run("simulate", rollouts().toString(), "--apply", "web.yaml");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("'web.yaml' is not FILE@TIME (a manifest file, '@', TIME: MM:SS, H:MM:SS")
        .doesNotContain("Exception");
  }

  @Test
  void apply_missingFile_exit2NamingTheFile(@TempDir Path dir) {
    int code = run("simulate", rollouts().toString(), "--apply", dir.resolve("nope.yaml") + "@01:00");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("nope.yaml is not a readable file").doesNotContain("Exception");
  }

  @Test
  void apply_afterTheEnd_exit2(@TempDir Path dir) throws Exception {
    Path v3 = version(dir, "delivery:3", "0.01");

    int code = run("simulate", rollouts().toString(), "--duration", "1m", "--apply", v3 + "@05:00");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("--apply " + v3 + "@05:00: 05:00 is after the end of the run (01:00)");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void apply_invalidManifest_exit1NamingFileFieldAndRule(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("bad.yaml");
    Files.writeString(f, Files.readString(version(dir, "delivery:3", "0.01")).replace("setWeight: 50",
        "setWeight: 150"));

    int code = run("simulate", rollouts().toString(), "--apply", f + "@01:00");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("--apply " + f + "@01:00").contains("setWeight").contains("150")
        .doesNotContain("Exception");
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void apply_scenarioFile_exit1(@TempDir Path dir) throws Exception {
    Path f = dir.resolve("scenario.yaml");
    Files.writeString(f, """
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: s}
        spec: {duration: 10m}
        """);

    int code = run("simulate", rollouts().toString(), "--apply", f + "@01:00");

    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("a Scenario cannot be applied during a run");
  }
}
