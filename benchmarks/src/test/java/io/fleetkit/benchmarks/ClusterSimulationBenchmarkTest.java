package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.adapter.kubernetes.yaml.LoadedObjects;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.simulator.ClusterSimulation;
import io.fleetkit.simulator.SimulationRun;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the whole-cluster benchmark at a small size: both node failures happen (the autoscaler's consolidation leaves
 * the two nodes in place) and every Deployment ends fully ready despite them.
 */
final class ClusterSimulationBenchmarkTest {
  @Test
  void run_smallCluster_allReadyAfterTheFailures() {
    ClusterSimulationBenchmark.Result r = ClusterSimulationBenchmark.run(30, 10, 50, Duration.ofHours(1),
        ScenarioFeatures.ALL);

    assertThat(r.allReady()).isTrue();
    assertThat(r.nodeFailures()).isEqualTo(2);
    assertThat(r.pods()).isEqualTo(500);
    assertThat(r.simulated()).isEqualTo(Duration.ofHours(1));
    assertThat(r.events()).isPositive();
    assertThat(r.liveHeapBytes()).isPositive();
    // the hourly heap measurement's collections are timed apart and left out of the wall time
    assertThat(r.heapMeasurementMillis()).isNotNegative();
    assertThat(r.wallMillis()).isNotNegative();
  }

  @Test
  void writeManifests_readBack_sameRunAsTheObjects(@TempDir Path dir) throws Exception {
    List<ApiObject<?>> objects = ClusterSimulationBenchmark.cluster(30, 10, 20, Duration.ofHours(1),
        ScenarioFeatures.ALL);

    Path file = ClusterSimulationBenchmark.writeManifests(objects, dir.resolve("day"));

    assertThat(file).isEqualTo(dir.resolve("day").resolve("cluster.yaml"));
    LoadedObjects loaded = KubernetesYaml.load(List.of(file.getParent()));
    assertThat(loaded.objects()).hasSameSizeAs(objects);
    assertThat(loaded.ofType(Scenario.class)).singleElement()
        .satisfies(sc -> assertThat(sc.spec().duration()).isEqualTo(Duration.ofHours(1)));
    SimulationRun fromObjects = ClusterSimulation.builder().objects(objects).podEvents(false).build().run();
    SimulationRun fromYaml = ClusterSimulation.builder().objects(loaded.objects()).podEvents(false).build().run();
    assertThat(fromYaml.timeline()).isNotEmpty().isEqualTo(fromObjects.timeline());
  }

  @Test
  void main_manifests_writesTheFileAndRunsNothing(@TempDir Path dir) {
    ClusterSimulationBenchmark.main(new String[] {"20", "2", "5", "1", "--manifests", dir.toString()});

    assertThat(dir.resolve("cluster.yaml")).isNotEmptyFile();
  }

  @Test
  void main_manifestsWithoutDirectory_namesTheFlag() {
    assertThatIllegalArgumentException()
        .isThrownBy(() -> ClusterSimulationBenchmark.main(new String[] {"--manifests"}))
        .withMessageContaining("--manifests needs a directory");
  }
}
