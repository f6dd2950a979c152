package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.HeaderRoutingMatch;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RouteMatch;
import io.fleetkit.api.rollouts.StringMatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Argo Rollouts' kinds through the YAML loader: the examples, both ways, and bad input. */
final class RolloutYamlTest {
  private static final Path EXAMPLES = Path.of("..", "..", "examples", "rollouts");

  private static LoadedObjects load(String file) throws Exception {
    return KubernetesYaml.parse(Files.readString(EXAMPLES.resolve(file)), "examples/rollouts/" + file);
  }

  @Test
  void examples_parseAndRoundTrip() throws Exception {
    try (Stream<Path> files = Files.list(EXAMPLES)) {
      for (Path f : files.filter(p -> p.toString().endsWith(".yaml")).toList()) {
        LoadedObjects first = load(f.getFileName().toString());
        String yaml = KubernetesYaml.dump(first.objects());
        assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).as(f.toString()).isEqualTo(first.objects());
      }
    }
  }

  @Test
  void canaryExample_stepsAndAnalysis() throws Exception {
    List<ApiObject<?>> objects = load("canary.yaml").objects();
    AnalysisTemplate t = (AnalysisTemplate) objects.get(0);
    assertThat(t.metrics().get(0).interval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(t.metrics().get(0).count()).isEqualTo(3);
    assertThat(t.metrics().get(0).provider()).isEqualTo(new MetricProvider.Simulated("error-rate"));
    Rollout r = (Rollout) objects.get(1);
    assertThat(r.canary().steps()).containsExactly(new CanaryStep.SetWeight(20),
        CanaryStep.Pause.of(Duration.ofSeconds(30)), new CanaryStep.SetWeight(50),
        new CanaryStep.Analysis(io.fleetkit.api.rollouts.RolloutAnalysis.of("error-rate")));
    assertThat(r.canary().maxSurge()).isEqualTo(IntOrPercent.of(1));
    assertThat(r.spec().template().spec().containers().get(0).readinessProbe()).isNotNull();
  }

  @Test
  void jobExample_jobSpecLoaded() throws Exception {
    AnalysisTemplate t = (AnalysisTemplate) load("canary-job-fails.yaml").objects().get(0);
    MetricProvider.Job job = (MetricProvider.Job) t.metrics().get(0).provider();
    assertThat(job.spec().backoffLimit()).isZero();
    assertThat(job.spec().template().metadata().annotations())
        .containsEntry("simulate.fleetkit.io/exit-code", "1");
  }

  private static String rolloutWithPause(String duration) {
    return """
        apiVersion: argoproj.io/v1alpha1
        kind: Rollout
        metadata: {name: web, namespace: delivery}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          strategy:
            canary:
              steps:
                - pause: {duration: %s}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1}]
        """.formatted(duration);
  }

  private static Duration pause(String duration) {
    Rollout r = (Rollout) KubernetesYaml.parse(rolloutWithPause(duration), "r.yaml").objects().get(0);
    return ((CanaryStep.Pause) r.canary().steps().get(0)).duration();
  }

  private static List<String> pauseProblems(String duration) {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse(rolloutWithPause(duration), "r.yaml"));
    return e.problems().stream().map(p -> p.violation().field() + ": " + p.violation().rule()).toList();
  }

  /**
   * Argo's {@code DurationString}: whole seconds or a Go duration, read exactly (a fraction was read through a
   * double, and a value past Go's longest wrapped round).
   */
  @Test
  void pauseDuration_goDurationOrWholeSeconds_readExactlyAndRangeChecked() {
    assertThat(pause("30")).isEqualTo(Duration.ofSeconds(30));
    assertThat(pause("'45'")).isEqualTo(Duration.ofSeconds(45));
    assertThat(pause("1.5h")).isEqualTo(Duration.ofMinutes(90));
    assertThat(pause("0.000000007s")).isEqualTo(Duration.ofNanos(7));
    assertThat(pause("1h0.3s")).isEqualTo(Duration.ofHours(1).plusMillis(300));
    assertThat(pause("2562047h47m16.854775807s")).isEqualTo(Duration.ofNanos(Long.MAX_VALUE));
    String step = "spec.strategy.canary.steps[0].pause.duration: ";
    assertThat(pauseProblems("3000000h")).contains(step + "must be at most 2562047h47m16.854775807s, Go's longest "
        + "duration");
    assertThat(pauseProblems("9223372036854775807")).contains(step + "must be at most 2562047h47m16.854775807s, "
        + "Go's longest duration");
    assertThat(pauseProblems("-5s")).contains(step + "must not be negative");
    assertThat(pauseProblems("'\u0663s'")).contains(step + "must be a duration such as 90s, 5m or 1h30m");

  }

  /**
   * The reading is the scenario's and the NodePool's ({@code Values.duration}): a length past Go's shortest is
   * negative (not "too long"), and a refused whole-seconds value is named as written.
   */
  @Test
  void pauseDuration_negativeOrTooLong_reportedAsWritten() {
    String step = "spec.strategy.canary.steps[0].pause.duration";
    assertThat(pauseViolations("-3000000h")).containsExactly(step + " \"-3000000h\" must not be negative");
    assertThat(pauseViolations("-5")).containsExactly(step + " \"-5\" must not be negative");
    assertThat(pauseViolations("'-9223372036854775809'"))
        .containsExactly(step + " \"-9223372036854775809\" must not be negative");
    assertThat(pauseViolations("'9223372036854775808'")).containsExactly(step + " \"9223372036854775808\" must be at "
        + "most 2562047h47m16.854775807s, Go's longest duration");
    assertThat(pause("+30")).isEqualTo(Duration.ofSeconds(30));
    assertThat(pause("'+007'")).isEqualTo(Duration.ofSeconds(7));
  }

  /**
   * An unquoted integer past a long's range is refused as too long, as the quoted one is, not wrapped round to a
   * negative number (and refused as negative); one below it is negative; an unquoted fraction is no whole seconds.
   */
  @Test
  void pauseDuration_unquotedIntegerPastALong_refusedAsTooLong() {
    String step = "spec.strategy.canary.steps[0].pause.duration";
    assertThat(pauseViolations("9223372036854775808")).containsExactly(step + " \"9223372036854775808\" must be at "
        + "most 2562047h47m16.854775807s, Go's longest duration");
    assertThat(pauseViolations("18446744073709551617")).containsExactly(step + " \"18446744073709551617\" must be at "
        + "most 2562047h47m16.854775807s, Go's longest duration");
    assertThat(pauseViolations("-9223372036854775809"))
        .containsExactly(step + " \"-9223372036854775809\" must not be negative");
    assertThat(pauseViolations("1.5")).containsExactly(step + " \"1.5\" must be a duration such as 90s, 5m or 1h30m");
    assertThat(pause("9223372036")).isEqualTo(Duration.ofSeconds(9_223_372_036L));
  }

  /**
   * maxSurge and maxUnavailable are Kubernetes int-or-strings (an int32): an unquoted integer past it is refused
   * naming the field, not wrapped round (4294967297 read as 1), and so is a fraction.
   */
  @Test
  void maxSurge_unquotedIntegerPastInt32OrFraction_refused() {
    String field = "spec.strategy.canary.maxSurge";
    assertThat(surgeViolations("4294967297")).containsExactly(field + " \"4294967297\" must be at most 2147483647, "
        + "the largest 32-bit integer");
    assertThat(surgeViolations("9223372036854775808")).containsExactly(field + " \"9223372036854775808\" must be at "
        + "most 2147483647, the largest 32-bit integer");
    assertThat(surgeViolations("-2147483649")).containsExactly(field + " \"-2147483649\" must be at least "
        + "-2147483648, the smallest 32-bit integer");
    assertThat(surgeViolations("1.5")).containsExactly(field + " \"1.5\" must be an integer or a percentage such as "
        + "\"25%\"");
    Rollout r = (Rollout) KubernetesYaml.parse(rolloutWithSurge("2147483647"), "r.yaml").objects().get(0);
    assertThat(r.canary().maxSurge()).isEqualTo(IntOrPercent.of(Integer.MAX_VALUE));
  }

  private static String rolloutWithSurge(String surge) {
    return rolloutWithPause("30s").replace("canary:\n", "canary:\n      maxSurge: " + surge + "\n");
  }

  private static List<String> surgeViolations(String surge) {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse(rolloutWithSurge(surge), "r.yaml"));
    return e.problems().stream().map(p -> p.violation().field() + " \"" + p.violation().value() + "\" "
        + p.violation().rule()).toList();
  }

  private static List<String> pauseViolations(String duration) {
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse(rolloutWithPause(duration), "r.yaml"));
    return e.problems().stream().map(p -> p.violation().field() + " \"" + p.violation().value() + "\" "
        + p.violation().rule()).toList();
  }

  @Test
  void badRollout_reportsArgoRules() {
    String yaml = """
        apiVersion: argoproj.io/v1alpha1
        kind: Rollout
        metadata: {name: web, namespace: delivery}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          strategy:
            canary:
              maxSurge: 0
              maxUnavailable: 0
              steps:
                - setWeight: 120
                - pause: {duration: soon}
                - experiment: {}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1}]
        """;
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "r.yaml"));
    assertThat(e.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule())
        .contains("spec.strategy.canary.steps[1].pause.duration: must be a duration such as 90s, 5m or 1h30m",
            "spec.strategy.canary.steps[2].experiment: is not a supported step: supported are setWeight, pause, "
                + "analysis, setCanaryScale, setHeaderRoute, setMirrorRoute");
  }

  @Test
  void badRollout_ruleViolationsAfterParsing() {
    String yaml = """
        apiVersion: argoproj.io/v1alpha1
        kind: Rollout
        metadata: {name: web, namespace: delivery}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          strategy:
            blueGreen: {activeService: web, previewService: web}
            canary:
              maxSurge: 0
              maxUnavailable: 0
              steps: [{setWeight: 120}]
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1}]
        """;
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "r.yaml"));
    assertThat(e.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule())
        .contains("spec.strategy: Multiple Strategies can not be listed",
            "spec.strategy.canary.maxSurge: MaxSurge and MaxUnavailable both can not be zero",
            "spec.strategy.canary.steps[0].setWeight: SetWeight needs to be between 0 and 100",
            "spec.strategy.blueGreen.previewService: This rollout uses the same service for the active and preview "
                + "services, but two different services are required.");
    assertThat(e.problems().get(0).violation().object()).isEqualTo("Rollout delivery/web");
  }

  private static final String MANAGED_ROUTES = """
      apiVersion: argoproj.io/v1alpha1
      kind: Rollout
      metadata: {name: web, namespace: delivery}
      spec:
        replicas: 2
        selector: {matchLabels: {app: web}}
        strategy:
          canary:
            stableService: web-stable
            canaryService: web-canary
            trafficRouting:
              plugins: {argoproj-labs/gatewayAPI: {httpRoute: web-route}}
              managedRoutes: [{name: header-1}, {name: mirror-1}]
            steps:
              - setHeaderRoute:
                  name: header-1
                  match:
                    - {headerName: X-Canary, headerValue: {exact: "true"}}
                    - {headerName: User-Agent, headerValue: {prefix: Mozilla}}
              - setMirrorRoute:
                  name: mirror-1
                  percentage: 35
                  match:
                    - method: {exact: GET}
                      path: {prefix: /api}
                      headers: {X-Debug: {regex: "on|yes"}}
              - setWeight: 20
              - setHeaderRoute: {name: header-1}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: web, image: web:1}]
      """;

  @Test
  void managedRoutes_readAndRoundTrip() {
    Rollout r = (Rollout) KubernetesYaml.parse(MANAGED_ROUTES, "r.yaml").objects().get(0);
    assertThat(r.canary().trafficRouting().managedRoutes()).containsExactly("header-1", "mirror-1");
    assertThat(r.canary().steps()).containsExactly(
        new CanaryStep.SetHeaderRoute("header-1", List.of(HeaderRoutingMatch.of("X-Canary", StringMatch.exact("true")),
            HeaderRoutingMatch.of("User-Agent", StringMatch.prefix("Mozilla")))),
        new CanaryStep.SetMirrorRoute("mirror-1", List.of(new RouteMatch(StringMatch.exact("GET"),
            StringMatch.prefix("/api"), java.util.Map.of("X-Debug", StringMatch.regex("on|yes")))), 35),
        new CanaryStep.SetWeight(20), new CanaryStep.SetHeaderRoute("header-1", List.of()));
    String yaml = KubernetesYaml.dump(List.of(r));
    assertThat(yaml).contains("managedRoutes", "setHeaderRoute", "setMirrorRoute", "headerValue", "percentage: 35");
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).containsExactly(r);
  }

  @Test
  void managedRoutes_badInput_fieldNamed() {
    String yaml = MANAGED_ROUTES.replace("{name: mirror-1}]", "{name: other, port: 1}]")
        .replace("{exact: \"true\"}", "{exact: \"true\", regex: t.*}")
        .replace("percentage: 35", "percentage: 35\n            service: x")
        .replace("path: {prefix: /api}", "path: {prefix: /api, suffix: x}");
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "r.yaml"));
    assertThat(e.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule()).contains(
        "spec.strategy.canary.trafficRouting.managedRoutes[1].port: is not a field of "
            + "spec.strategy.canary.trafficRouting.managedRoutes[1] (fields: [name])",
        "spec.strategy.canary.steps[1].setMirrorRoute.service: is not a field of "
            + "spec.strategy.canary.steps[1].setMirrorRoute (fields: [match, name, percentage])",
        "spec.strategy.canary.steps[1].setMirrorRoute.match[0].path.suffix: is not a field of "
            + "spec.strategy.canary.steps[1].setMirrorRoute.match[0].path (fields: [exact, prefix, regex])");
    ManifestException rules = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        MANAGED_ROUTES.replace("{name: mirror-1}]", "{name: other}]")
            .replace("{exact: \"true\"}", "{exact: \"true\", regex: t.*}"), "r.yaml"));
    assertThat(rules.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule()).contains(
        "spec.strategy.canary.steps[0].setHeaderRoute.match[0].headerValue: StringMatch match value must have "
            + "exactly one of the following: exact, regex, prefix",
        "spec.strategy.canary.steps[1].setMirrorRoute.name: Steps define a route that does not exist in "
            + "spec.strategy.canary.trafficRouting.managedRoutes");
  }

  private static final String SCALE_DOWN = """
      apiVersion: argoproj.io/v1alpha1
      kind: Rollout
      metadata: {name: web, namespace: delivery}
      spec:
        replicas: 2
        revisionHistoryLimit: 3
        selector: {matchLabels: {app: web}}
        strategy:
          STRATEGY
        template:
          metadata: {labels: {app: web}}
          spec:
            containers: [{name: web, image: web:1}]
      """;

  private static final String ROUTED = "canary: {stableService: s, canaryService: c, trafficRouting: {plugins: "
      + "{argoproj-labs/gatewayAPI: {httpRoute: r}}}, ";

  private static List<String> problems(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "r.yaml"));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(p -> p.violation().field() + ": " + p.violation().rule()).toList();
  }

  @Test
  void scaleDownDelays_readAndRoundTrip() {
    Rollout bg = (Rollout) KubernetesYaml.parse(SCALE_DOWN.replace("STRATEGY", "blueGreen: {activeService: a, "
        + "scaleDownDelaySeconds: 60, scaleDownDelayRevisionLimit: 2, abortScaleDownDelaySeconds: 0}"), "r.yaml")
        .objects().get(0);
    assertThat(bg.blueGreen().scaleDownDelaySeconds()).isEqualTo(60);
    assertThat(bg.blueGreen().scaleDownDelayRevisionLimit()).isEqualTo(2);
    assertThat(bg.blueGreen().abortScaleDownDelaySeconds()).isZero();
    Rollout c = (Rollout) KubernetesYaml.parse(SCALE_DOWN.replace("STRATEGY", ROUTED
        + "scaleDownDelaySeconds: 45, scaleDownDelayRevisionLimit: 1, abortScaleDownDelaySeconds: 10}"), "r.yaml")
        .objects().get(0);
    assertThat(c.canary().scaleDownDelaySeconds()).isEqualTo(45);
    assertThat(c.canary().scaleDownDelayRevisionLimit()).isEqualTo(1);
    assertThat(c.canary().abortScaleDownDelaySeconds()).isEqualTo(10);
    for (Rollout r : List.of(bg, c)) {
      String yaml = KubernetesYaml.dump(List.of(r));
      assertThat(yaml).contains("scaleDownDelayRevisionLimit", "abortScaleDownDelaySeconds");
      assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).containsExactly(r);
    }
  }

  /** argo-rollouts {@code validation_test.go}: TestValidateRolloutStrategyBlueGreen, TestCanaryScaleDownDelaySeconds,
   * TestCanaryDynamicStableScale, with upstream's messages. */
  @Test
  void scaleDownDelays_badInput_fieldNamedWithArgosMessage() {
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", "blueGreen: {activeService: a, scaleDownDelayRevisionLimit: 4}")))
        .contains("spec.strategy.blueGreen.scaleDownDelayRevisionLimit: This rollout's revision history limit can not "
            + "be smaller than the rollout's scale down limit");
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", "canary: {scaleDownDelaySeconds: 60}")))
        .contains("spec.strategy.canary.scaleDownDelaySeconds: Canary scaleDownDelaySeconds can only be used with "
            + "traffic routing");
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", ROUTED + "scaleDownDelaySeconds: 60, dynamicStableScale: true}")))
        .contains("spec.strategy.canary.dynamicStableScale: Canary dynamicStableScale cannot be used with "
            + "scaleDownDelaySeconds");
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", ROUTED + "scaleDownDelayRevisionLimit: -1, "
        + "abortScaleDownDelaySeconds: -2}")))
        .contains("spec.strategy.canary.scaleDownDelayRevisionLimit: must be greater than or equal to 0",
            "spec.strategy.canary.abortScaleDownDelaySeconds: must be greater than or equal to 0");
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", "blueGreen: {activeService: a, scaleDownDelaySeconds: 1.5}")))
        .anyMatch(p -> p.startsWith("spec.strategy.blueGreen.scaleDownDelaySeconds: "));
  }

  @Test
  void ephemeralMetadata_readAndRoundTrip() {
    Rollout c = (Rollout) KubernetesYaml.parse(SCALE_DOWN.replace("STRATEGY", "canary: {canaryMetadata: "
        + "{labels: {role: canary}, annotations: {team/owner: web}}, stableMetadata: {labels: {role: stable}}}"),
        "r.yaml").objects().get(0);
    assertThat(c.canary().canaryMetadata()).isEqualTo(new io.fleetkit.api.rollouts.PodTemplateMetadata(
        java.util.Map.of("role", "canary"), java.util.Map.of("team/owner", "web")));
    assertThat(c.canary().stableMetadata().labels()).isEqualTo(java.util.Map.of("role", "stable"));
    Rollout bg = (Rollout) KubernetesYaml.parse(SCALE_DOWN.replace("STRATEGY", "blueGreen: {activeService: a, "
        + "activeMetadata: {labels: {role: active}}, previewMetadata: {}}"), "r.yaml").objects().get(0);
    assertThat(bg.blueGreen().activeMetadata().labels()).isEqualTo(java.util.Map.of("role", "active"));
    assertThat(bg.blueGreen().previewMetadata()).as("an empty one is kept").isNotNull();
    for (Rollout r : List.of(c, bg)) {
      String yaml = KubernetesYaml.dump(List.of(r));
      assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).containsExactly(r);
    }
  }

  @Test
  void ephemeralMetadata_badInput_fieldNamed() {
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", "canary: {canaryMetadata: {labels: {role: canary}, "
        + "finalizers: [x]}}")))
        .contains("spec.strategy.canary.canaryMetadata.finalizers: is not a field of "
            + "spec.strategy.canary.canaryMetadata (fields: [annotations, labels])");
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", "blueGreen: {activeService: a, activeMetadata: "
        + "{labels: {\"bad key!\": x}}, previewMetadata: {annotations: {\"-no\": y}}}")))
        .anyMatch(p -> p.startsWith("spec.strategy.blueGreen.activeMetadata.labels"))
        .anyMatch(p -> p.startsWith("spec.strategy.blueGreen.previewMetadata.annotations"));
    assertThat(problems(SCALE_DOWN.replace("STRATEGY", "canary: {stableMetadata: {labels: {role: [a]}}}")))
        .contains("spec.strategy.canary.stableMetadata.labels.role: must be a string, not a list");
  }
}
