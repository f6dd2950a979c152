package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.adapter.kubernetes.yaml.ManifestException;
import io.fleetkit.api.simulation.JobArrival;
import io.fleetkit.api.simulation.JobStream;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.WorkloadLoad;
import io.fleetkit.traces.OpenbTraces;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import io.fleetkit.api.ValidationException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Fuzzes what {@code fleetkit simulate DIR} does with a folder's text before the run: the manifest reader with its
 * Scenario kind (inline load CSVs and pod lists included), the Scenario's validation, the simulation's checks against
 * the other manifests, and the Jobs each job stream creates. Any text gives manifest problems naming a rule, or
 * objects; for each Scenario among them, the writer gives the same Scenario back, every load's rate is a finite
 * number of at least 0, the simulation builds or fails with a {@link ValidationException} whose violations name the
 * Scenario and a field, and every stream's Jobs (the first and the last, named as the run names them) are valid objects; never
 * another exception, never a hang. The corpus holds the examples' folders (each folder's files as one text) and a
 * Scenario with every field.
 */
final class ScenarioFuzzTest {
  private static final Map<String, String> TRACES = new ConcurrentHashMap<>();

  private static String bundled(String trace) {
    try (InputStream in = OpenbTraces.openPods(trace)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @FuzzTest(maxDuration = "30s")
  void build_anyScenarioText_simulationOrProblems(byte[] data) {
    String text = new String(data, StandardCharsets.UTF_8);
    LoadedObjects loaded;
    try {
      loaded = KubernetesYaml.parse(text, "scenario.yaml");
    } catch (ManifestException e) {
      assertThat(e.problems()).isNotEmpty().allSatisfy(p -> assertThat(p.violation().rule()).isNotBlank());
      return;
    }
    List<Scenario> scenarios = loaded.ofType(Scenario.class);
    for (Scenario s : scenarios) {
      Scenario again = KubernetesYaml.parse(KubernetesYaml.dump(List.of(s)), "dump.yaml").ofType(Scenario.class)
          .get(0);
      assertThat(again).as("the scenario written and read back").isEqualTo(s);
      Duration d = s.spec().duration();
      for (WorkloadLoad l : s.spec().loads()) {
        for (Duration t : List.of(Duration.ZERO, d.dividedBy(3), d.dividedBy(2), d)) {
          double r = l.pattern().rateAt(t);
          assertThat(Double.isFinite(r) && r >= 0).as("%s rate at %s: %s", l.target(), t, r).isTrue();
        }
      }
    }
    if (scenarios.size() != 1) {
      return; // none: a plain simulation; several: the builder refuses, as the command does
    }
    Scenario s = scenarios.get(0);
    Duration d = s.spec().duration();
    try {
      ClusterSimulation.builder().objects(loaded.objects()).build();
    } catch (ValidationException e) {
      assertThat(e.violations()).isNotEmpty().allSatisfy(v -> {
        assertThat(v.object()).isEqualTo(s.describe());
        assertThat(v.field()).startsWith("spec");
        assertThat(v.rule()).isNotBlank();
      });
      return;
    }
    for (JobStream js : s.spec().jobStreams()) {
      if (!js.trace().isEmpty() && !OpenbTraces.POD_LISTS.contains(js.trace())) {
        continue; // the checks above refuse it
      }
      List<JobArrival> arrivals = js.trace().isEmpty() ? JobArrivals.arrivals(js, s.spec().seed(), d)
          // as JobArrivals reads a trace stream, the bundled list read once (reading it costs more than the rest)
          : JobStream.of(js.name(), js.namespace(), js.queue(), JobStream.parsePodList(
              TRACES.computeIfAbsent(js.trace(), ScenarioFuzzTest::bundled), js.timeScale(), js.first()))
              .arrivals(s.spec().seed(), d);
      if (!arrivals.isEmpty()) {
        int last = arrivals.size() - 1;
        JobArrivals.job(js, JobArrivals.jobName(js, 0, arrivals.size()), arrivals.get(0));
        JobArrivals.job(js, JobArrivals.jobName(js, last, arrivals.size()), arrivals.get(last));
      }
    }
  }
}
