package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.simulation.ScenarioFeatures;
import java.time.Duration;
import org.junit.jupiter.api.Test;

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
}
