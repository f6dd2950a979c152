package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.simulation.ScenarioFeatures;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Runs the whole-cluster benchmark at a small size: every Deployment ends fully ready despite two node failures. */
final class ClusterSimulationBenchmarkTest {
  @Test
  void run_smallCluster_allReadyAfterTheFailures() {
    ClusterSimulationBenchmark.Result r = ClusterSimulationBenchmark.run(12, 3, 10, Duration.ofHours(1),
        ScenarioFeatures.ALL);

    assertThat(r.allReady()).isTrue();
    assertThat(r.pods()).isEqualTo(30);
    assertThat(r.simulated()).isEqualTo(Duration.ofHours(1));
    assertThat(r.events()).isPositive();
    assertThat(r.liveHeapBytes()).isPositive();
    // the hourly heap measurement's collections are timed apart and left out of the wall time
    assertThat(r.heapMeasurementMillis()).isNotNegative();
    assertThat(r.wallMillis()).isNotNegative();
  }
}
