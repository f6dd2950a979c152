package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** The bundled examples/cluster, loaded through the YAML adapter. */
final class Examples {
  private Examples() {}

  static Path cluster() {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.isDirectory(p.resolve("examples/cluster"))) {
      p = p.getParent();
    }
    assertThat(p).as("examples/cluster above the working directory").isNotNull();
    return p.resolve("examples/cluster");
  }

  static List<ApiObject<?>> clusterObjects() {
    return KubernetesYaml.load(List.of(cluster())).objects();
  }

  /** The example's scenario, cut to {@code duration}. */
  static Scenario scenario(List<ApiObject<?>> objects, Duration duration) {
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst().orElseThrow();
    ScenarioSpec x = s.spec();
    return new Scenario(s.metadata(), new ScenarioSpec(duration, x.seed(), x.sampleInterval(), x.loads(), x.faults(),
        x.features()));
  }

  static List<ApiObject<?>> withoutScenario(List<ApiObject<?>> objects) {
    return objects.stream().filter(o -> !(o instanceof Scenario)).toList();
  }
}
