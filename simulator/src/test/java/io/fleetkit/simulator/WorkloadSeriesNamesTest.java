package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.simulation.LoadPattern;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioFeatures;
import io.fleetkit.api.simulation.ScenarioSpec;
import io.fleetkit.api.simulation.WorkloadLoad;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A Deployment, a StatefulSet and a Rollout may share a namespace and a name (an Argo Rollout that takes over a
 * Deployment often does): each gets series of its own, a Deployment's named {@code NS/NAME} and the others'
 * {@code KIND/NS/NAME}, and so does each load. With more than one workload their lines have a chart of their own.
 */
final class WorkloadSeriesNamesTest {
  private static PodSpec spec(String image) {
    return PodSpec.builder().container("app", image, ResourceList.ofCpuMemory(100, 0)).build();
  }

  @Test
  void sameNameInThreeKinds_eachItsOwnSeries() {
    List<ApiObject<?>> objects = new ArrayList<>(SimFixtures.nodes(3));
    objects.add(Deployment.builder().namespace("default").name("web").replicas(2)
        .matchLabels(Map.of("app", "web-deployment")).podSpec(spec("web:1")).build());
    objects.add(StatefulSet.builder().namespace("default").name("web").replicas(3).serviceName("web")
        .matchLabels(Map.of("app", "web-statefulset")).podSpec(spec("web:2")).build());
    objects.add(Rollout.builder().namespace("default").name("web").replicas(4)
        .matchLabels(Map.of("app", "web-rollout"))
        .template(new PodTemplateSpec(ObjectMeta.builder().labels(Map.of("app", "web-rollout")).build(),
            spec("web:3")))
        .canary(CanaryStrategy.of()).build());
    List<WorkloadLoad> loads = List.of(
        new WorkloadLoad("Deployment", "default", "web", LoadPattern.constant(10), 1, 0),
        new WorkloadLoad("Rollout", "default", "web", LoadPattern.constant(20), 1, 0));
    Scenario scenario = new Scenario(ObjectMeta.builder().name("same-name").build(), new ScenarioSpec(
        Duration.ofMinutes(5), 1, Duration.ofMinutes(1), loads, List.of(), ScenarioFeatures.ALL));

    SimulationRun run = ClusterSimulation.builder().objects(objects).scenario(scenario).podEvents(false).build()
        .run();

    int samples = run.sampleTimes().size();
    assertThat(run.series("desired default/web").orElseThrow().values()).hasSize(samples).last().isEqualTo(2.0);
    assertThat(run.series("desired StatefulSet/default/web").orElseThrow().values()).hasSize(samples).last()
        .isEqualTo(3.0);
    assertThat(run.series("desired Rollout/default/web").orElseThrow().values()).hasSize(samples).last()
        .isEqualTo(4.0);
    assertThat(run.series("ready StatefulSet/default/web").orElseThrow().last()).isEqualTo(3.0);
    assertThat(run.series("requests/s default/web").orElseThrow().last()).isEqualTo(10.0);
    assertThat(run.series("requests/s Rollout/default/web").orElseThrow().last()).isEqualTo(20.0);
    assertThat(run.series(SeriesRecorder.DESIRED_ALL).orElseThrow().last()).isEqualTo(9.0);
    // three workloads: their lines are charted apart from the totals, on an axis of their own
    assertThat(run.series(SeriesRecorder.DESIRED_ALL).orElseThrow().chart()).isEqualTo(SeriesRecorder.WORKLOADS);
    assertThat(run.series(SeriesRecorder.READY_ALL).orElseThrow().chart()).isEqualTo(SeriesRecorder.WORKLOADS);
    assertThat(run.series("ready Rollout/default/web").orElseThrow().chart()).isEqualTo(SeriesRecorder.WORKLOADS_EACH);
    assertThat(run.series().stream().filter(s -> s.chart().equals(SeriesRecorder.WORKLOADS_EACH))).hasSize(6);
    assertThat(run.charts()).containsSubsequence(SeriesRecorder.WORKLOADS, SeriesRecorder.WORKLOADS_EACH,
        SeriesRecorder.NODES);
  }
}
