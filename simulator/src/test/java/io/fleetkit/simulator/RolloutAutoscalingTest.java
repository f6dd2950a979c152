package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fleetkit.api.autoscaling.CrossVersionObjectReference;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscaler;
import io.fleetkit.api.autoscaling.HorizontalPodAutoscalerSpec;
import io.fleetkit.api.autoscaling.MetricSpec;
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
 * A Rollout scaled by an HPA in the whole-cluster simulation: the load on the rollout steps up, the HPA (its
 * {@code scaleTargetRef} an {@code argoproj.io/v1alpha1 Rollout}) raises the rollout's replicas, and the rollout
 * controller brings the pods up.
 */
final class RolloutAutoscalingTest {
  @Test
  void loadStepsUp_hpaScalesTheRollout() {
    List<ApiObject<?>> objects = new ArrayList<>(SimFixtures.nodes(4));
    objects.add(Rollout.builder().namespace("default").name("web").replicas(2).matchLabels(Map.of("app", "web"))
        .template(new PodTemplateSpec(ObjectMeta.builder().labels(Map.of("app", "web")).build(),
            PodSpec.builder().container("app", "shop:1", ResourceList.ofCpuMemory(500, 0)).build()))
        .canary(CanaryStrategy.of()).build());
    objects.add(HorizontalPodAutoscaler.of(ObjectMeta.builder().namespace("default").name("web").build(),
        HorizontalPodAutoscalerSpec.builder()
            .scaleTargetRef(CrossVersionObjectReference.of(Rollout.API_VERSION, Rollout.KIND, "web"))
            .minReplicas(2).maxReplicas(10).metric(MetricSpec.resourceUtilization("cpu", 60)).build()));
    // 1 millicore per request/s: 600 requests/s keep 2 pods of 500m at 60%; 1,800 need 6
    WorkloadLoad load = new WorkloadLoad("Rollout", "default", "web",
        LoadPattern.step(600, 1800, Duration.ofMinutes(10)), 1, 0);
    Scenario scenario = new Scenario(ObjectMeta.builder().name("rollout-hpa").build(),
        new ScenarioSpec(Duration.ofMinutes(30), 1, Duration.ofMinutes(1), List.of(load), List.of(),
            ScenarioFeatures.ALL));

    SimulationRun run = ClusterSimulation.builder().objects(objects).scenario(scenario).podEvents(false).build()
        .run();

    List<TimelineEvent> scales = run.timeline().stream().filter(e -> e.kind().equals("HorizontalScale")).toList();
    assertThat(scales).isNotEmpty();
    assertThat(scales.get(0).object()).isEqualTo("HorizontalPodAutoscaler/default/web");
    assertThat(scales.get(0).at()).isGreaterThanOrEqualTo(Duration.ofMinutes(10));
    assertThat(run.series("desired Rollout/default/web")).isPresent();
    assertThat(run.series("desired Rollout/default/web").orElseThrow().last()).isEqualTo(6.0);
    // the Rollout's pods serve: their capacity comes from the Rollout's template, as a Deployment's from its own
    // (600 requests/s to 2 pods of 500 millicores at 1 millicore each: 1,000/s; the HPA reads the step's 1,800/s at
    // the step's instant and its pods start at once here, so nothing is ever beyond capacity)
    assertThat(run.series("unserved requests/s Rollout/default/web").orElseThrow().values().get(5)).isZero();
    assertThat(run.series("cpu used").orElseThrow().values().get(5)).isEqualTo(0.6);
    assertThat(run.loads()).singleElement().satisfies(l -> {
      assertThat(l.target()).isEqualTo("Rollout/default/web");
      assertThat(l.requests()).isCloseTo(600.0 * 600 + 1800.0 * 1200, within(1e-6));
      assertThat(l.unserved()).isZero();
    });
  }
}
