package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.ResourceQuota;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A Scenario run (the path of {@code fleetkit simulate} with a Scenario) runs the standard admission chain when the
 * manifests hold a ResourceQuota: a Deployment above its quota shows {@code FailedCreate} in the run's timeline with
 * the quota's denial and ends with as many ready replicas as the quota allows; {@code features.admission: false}
 * switches the chain off.
 */
final class ScenarioAdmissionTest {

  private static SimulationRun run(boolean admission) {
    List<ApiObject<?>> objects = new ArrayList<>(SimFixtures.nodes(3));
    objects.add(ResourceQuota.of("default", "pods", ResourceList.builder().put("pods", "3").build()));
    objects.add(SimFixtures.deployment("web", 5));
    ScenarioFeatures features = new ScenarioFeatures(false, false, false, false, false, false, false, true,
        admission);
    Scenario scenario = new Scenario(ObjectMeta.builder().name("quota").build(), new ScenarioSpec(
        Duration.ofMinutes(3), 4, Duration.ofMinutes(1), List.of(), List.of(), features, List.of(), List.of(),
        List.of()));
    return ClusterSimulation.builder().objects(objects).scenario(scenario).podEvents(false).build().run();
  }

  @Test
  void scenarioRun_quotaDeniedCreate_isFailedCreateInTheTimeline() {
    SimulationRun run = run(true);

    List<TimelineEvent> failed = run.timeline().stream().filter(e -> e.kind().equals("FailedCreate")).toList();
    assertThat(failed).isNotEmpty();
    assertThat(failed.get(0).object()).startsWith("ReplicaSet/default/web-");
    assertThat(failed.get(0).message()).startsWith("Error creating: Pod default/web-")
        .contains("exceeded quota: pods, requested: pods=1, used: pods=3, limited: pods=3");
    assertThat(run.summary().deployments()).containsExactly(new WorkloadSummary("default/web", 5, 3));
  }

  @Test
  void scenarioRun_admissionSwitchedOff_quotaIsNotEnforced() {
    SimulationRun run = run(false);

    assertThat(run.timeline()).noneMatch(e -> e.kind().equals("FailedCreate"));
    assertThat(run.summary().deployments()).containsExactly(new WorkloadSummary("default/web", 5, 5));
  }
}
