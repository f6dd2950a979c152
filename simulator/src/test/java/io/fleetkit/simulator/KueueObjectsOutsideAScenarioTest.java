package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.manifest.ResourceFlavorObject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Kueue's objects configure a scenario run's queues from its manifests when it starts; a simulation without a
 * Scenario, or an apply during a run, would only store them, so both refuse them naming the object.
 */
final class KueueObjectsOutsideAScenarioTest {

  private static final ResourceFlavorObject FLAVOR = ResourceFlavorObject.of(ResourceFlavor.of("a100"));

  @Test
  void simulation_withAKueueObject_isRefusedNamingIt() {
    assertThatThrownBy(() -> Simulation.builder().object(FLAVOR))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("simulation: ResourceFlavor a100 cannot be created at the start: Kueue's objects"
            + " configure the queues of a run with a Scenario");
  }

  @Test
  void simulationApply_ofAKueueObject_isRefusedNamingTimeAndSource() {
    assertThatThrownBy(() -> Simulation.builder().apply(Duration.ofMinutes(5), List.of(FLAVOR), "flavors.yaml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("simulation: ResourceFlavor a100 cannot be created at PT5M from flavors.yaml");
  }

  @Test
  void clusterSimulationApply_ofAKueueObject_isRefusedAtOnce() {
    assertThatThrownBy(() -> ClusterSimulation.builder().apply(Duration.ofMinutes(5), List.of(FLAVOR), "flavors.yaml"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ResourceFlavor a100 cannot be created at PT5M from flavors.yaml");
  }
}
