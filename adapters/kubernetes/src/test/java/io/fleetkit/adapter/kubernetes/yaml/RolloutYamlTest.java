package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.rollouts.AnalysisTemplate;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.MetricProvider;
import io.fleetkit.api.rollouts.Rollout;
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
        .contains("spec.strategy.canary.steps[1].pause.duration: must be a duration such as 30s, 5m or 1h30m",
            "spec.strategy.canary.steps[2].experiment: is not a supported step: supported are setWeight, pause, "
                + "analysis, setCanaryScale");
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
}
