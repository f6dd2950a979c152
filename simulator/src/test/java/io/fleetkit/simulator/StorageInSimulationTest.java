package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** examples/storage in the simulator: claims are bound and provisioned only with the storage feature on. */
final class StorageInSimulationTest {
  private static SimulationRun run(boolean storage) {
    List<ApiObject<?>> objects = KubernetesYaml.load(List.of(Examples.cluster().resolveSibling("storage")))
        .objects();
    Scenario s = new Scenario(ObjectMeta.builder().name("storage").build(), new ScenarioSpec(Duration.ofMinutes(2),
        0, Duration.ofSeconds(30), List.of(), List.of(), new ScenarioFeatures(false, false, storage)));
    return ClusterSimulation.builder().objects(objects).scenario(s).build().run();
  }

  private static List<String> scheduled(SimulationRun run) {
    return run.timeline().stream().filter(e -> e.kind().equals("PodScheduled"))
        .map(e -> e.object() + " " + e.message()).toList();
  }

  @Test
  void storageOn_podsWithClaimsScheduledAndClaimsBound() {
    SimulationRun run = run(true);
    // only nvme-a-1 holds 300Gi (node-a1); the fast-ssd class allows zone-b only
    assertThat(scheduled(run)).contains("Pod/default/trainer to node-a1", "Pod/default/checkpointer to node-b1");
    assertThat(run.series("pending pods").orElseThrow().last()).isZero();
  }

  @Test
  void storageOff_scheduledWithoutVolumeChecks() {
    // without the VolumeBinding plugin nothing binds the WaitForFirstConsumer claims; the pods still start
    SimulationRun run = run(false);
    assertThat(scheduled(run)).anyMatch(e -> e.startsWith("Pod/default/trainer to "));
  }
}
