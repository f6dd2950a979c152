package io.fleetkit.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Runs the simulation benchmark at a small size: it must finish with every pod Running. */
final class SimulationBenchmarkTest {
  @Test
  void run_smallCluster_allPodsRunning() {
    SimulationBenchmark.Result r = SimulationBenchmark.run(200, 20, 1);

    assertThat(r.done()).isTrue();
    assertThat(r.pods()).isEqualTo(200);
    assertThat(r.deployments()).isEqualTo(10);
    assertThat(r.nodes()).isEqualTo(4);
    assertThat(r.simulated().toSeconds()).isLessThan(60);
  }
}
