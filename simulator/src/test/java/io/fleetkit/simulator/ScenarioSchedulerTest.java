package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import io.fleetkit.api.simulation.ScenarioScheduler;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The scenario's scheduler ({@code spec.scheduler}): the bin-packing profile, a GPU placement policy (the per-device
 * GPU plugins on nodes that list no devices, GPU device faults taking devices out of their view), and the
 * {@code gpu used} series.
 */
final class ScenarioSchedulerTest {
  private static final String SCENARIO = "apiVersion: simulation.fleetkit.io/v1\nkind: Scenario\nmetadata: {name: t}\n";
  private static final String OFF = "horizontalPodAutoscaler: false, clusterAutoscaler: false, storage: false, "
      + "verticalPodAutoscaler: false, queueAdmission: false, queueScaling: false";

  private static List<ApiObject<?>> load(String yaml) {
    return KubernetesYaml.parse(yaml, "test.yaml").objects();
  }

  private static SimulationRun run(String yaml) {
    return ClusterSimulation.builder().objects(load(yaml)).build().run();
  }

  private static double at(SimulationRun run, String series, Duration t) {
    TimeSeries s = run.series(series).orElseThrow(() -> new AssertionError("no series " + series));
    return s.values().get(run.sampleTimes().indexOf(t));
  }

  private static String node(String name, String gpus) {
    return """
        apiVersion: v1
        kind: Node
        metadata: {name: %s}
        status:
          capacity: {cpu: "8", memory: 32Gi, pods: "110"%s}
        ---
        """.formatted(name, gpus.isEmpty() ? "" : ", nvidia.com/gpu: \"" + gpus + "\"");
  }

  /** A Deployment whose pods ask {@code resources} ({@code requests: {...}, limits: {...}}). */
  private static String deployment(String name, int replicas, String resources, String annotations) {
    return """
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: %s, namespace: default}
        spec:
          replicas: %d
          selector: {matchLabels: {app: %s}}
          template:
            metadata: {labels: {app: %s}, annotations: {%s}}
            spec:
              containers: [{name: c, image: c:1, resources: {%s}}]
        ---
        """.formatted(name, replicas, name, name, annotations, resources);
  }

  private static String scenario(String scheduler, String more) {
    return SCENARIO + """
        spec:
          duration: 2m
          sampleInterval: 30s
          features: {%s}
          scheduler: {%s}
        %s""".formatted(OFF, scheduler, more);
  }

  private static Set<String> nodesOf(SimulationRun run) {
    return run.timeline().stream().filter(e -> e.kind().equals("PodScheduled"))
        .map(e -> e.message().substring("to ".length())).collect(Collectors.toSet());
  }

  @Test
  void mostAllocated_packsWhereTheDefaultSpreads() {
    String cluster = node("n1", "") + node("n2", "") + node("n3", "")
        + deployment("web", 3, "requests: {cpu: 500m, memory: 1Gi}", "");
    assertThat(nodesOf(run(cluster + scenario("profile: default", "")))).hasSize(3);
    assertThat(nodesOf(run(cluster + scenario("profile: mostAllocated", "")))).hasSize(1);
  }

  @Test
  void gpuPolicy_sharesOneDeviceThatTheDefaultProfileCannotPlace_gpuUsedFollowsTheAnnotation() {
    String cluster = node("gpu-1", "1")
        + deployment("infer", 2,
            "requests: {cpu: 500m}, limits: {fleetkit.io/gpu-milli: \"500\"}",
            "simulate.fleetkit.io/gpu-utilization: \"0.5\"");
    // kube's default profile has no per-device plugins: the share is an extended resource no node has
    SimulationRun plain = run(cluster + scenario("profile: default", ""));
    assertThat(at(plain, "pending pods", Duration.ofMinutes(2))).isEqualTo(2);
    for (String policy : List.of("GapFill", "FGD", "BestFit")) {
      SimulationRun run = run(cluster + scenario("gpuPolicy: " + policy, ""));
      assertThat(at(run, "running pods", Duration.ofMinutes(2))).as(policy).isEqualTo(2);
      // two halves of one device, each kept half busy
      assertThat(at(run, "gpu used", Duration.ofMinutes(2))).as(policy).isEqualTo(0.5);
    }
  }

  /**
   * The utilisation annotation is Go float text: "NaN" made the GPUs in use NaN (Math.min and max keep it) and
   * "0.5d" read as 0.5; both are no share now, so the pods count as busy.
   */
  @Test
  void gpuUsed_utilisationNotAShare_podsCountAsBusy() {
    for (String u : List.of("NaN", "0.5d", " 0.5")) {
      String cluster = node("gpu-1", "1") + deployment("infer", 2,
          "requests: {cpu: 500m}, limits: {fleetkit.io/gpu-milli: \"500\"}",
          "simulate.fleetkit.io/gpu-utilization: \"" + u + "\"");
      SimulationRun run = run(cluster + scenario("gpuPolicy: GapFill", ""));
      assertThat(at(run, "gpu used", Duration.ofMinutes(2))).as(u).isEqualTo(1.0);
    }
  }

  @Test
  void gpuPolicy_deviceFaultTakesTheDeviceOutOfTheGpuPluginsView_untilItHeals_sameRunTwice() {
    String yaml = node("gpu-1", "2") + deployment("train", 2,
        "requests: {cpu: \"1\"}, limits: {nvidia.com/gpu: \"1\"}", "")
        + scenario("gpuPolicy: GapFill", """
              faults:
              - {at: 45s, gpuDeviceFault: gpu-1, devices: 1, recoverAfter: 60s}
            """).replace("duration: 2m", "duration: 3m");
    SimulationRun run = run(yaml);
    SimulationRun again = run(yaml);
    assertThat(again.timeline()).isEqualTo(run.timeline());
    assertThat(again.series()).isEqualTo(run.series());
    assertThat(at(run, "running pods", Duration.ofSeconds(30))).isEqualTo(2);
    assertThat(at(run, "gpu used", Duration.ofSeconds(30))).isEqualTo(2); // no annotation, no load: busy
    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("GpuDeviceFailed")).singleElement()
        .satisfies(e -> assertThat(e.message()).containsOnlyOnce("default/train-"));
    // the replacement cannot take the failed device (the GPU plugins read the device list, not allocatable)
    assertThat(at(run, "pending pods", Duration.ofSeconds(60))).isEqualTo(1);
    assertThat(at(run, "pending pods", Duration.ofSeconds(120))).isZero();
    assertThat(at(run, "gpu used", Duration.ofSeconds(120))).isEqualTo(2);
  }

  @Test
  void gpuUsed_followsTheLoadOfALoadedWorkload() {
    SimulationRun run = run(node("gpu-1", "4") + deployment("serve", 2,
        "requests: {cpu: \"1\"}, limits: {nvidia.com/gpu: \"1\"}", "")
        + scenario("profile: default", """
              loads:
              - target: {name: serve}
                cpuPerRequest: 10m
                constant: 50
            """));
    // two pods of 1 CPU serve 200 requests/s; 50 keep them a quarter busy
    assertThat(at(run, "gpu requested", Duration.ofMinutes(2))).isEqualTo(2);
    assertThat(at(run, "gpu used", Duration.ofMinutes(2))).isEqualTo(0.5);
    assertThat(run.series("gpu free on partly used nodes")).isPresent();
  }

  @Test
  void unknownGpuPolicyInCode_rejectedNamingTheFieldAndThePolicies() {
    List<ApiObject<?>> objects = load(node("n1", "") + scenario("profile: default", ""));
    Scenario s = (Scenario) objects.stream().filter(o -> o instanceof Scenario).findFirst().orElseThrow();
    Scenario bad = new Scenario(s.metadata(), s.spec().withScheduler(new ScenarioScheduler("default", "tetris")));
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(bad)
        .build()).isInstanceOf(io.fleetkit.api.ValidationException.class)
        .hasMessageContaining("spec.scheduler.gpuPolicy").hasMessageContaining("tetris")
        .hasMessageContaining("GapFill").hasMessageContaining("FGD");
  }

  @Test
  void rolloutsFeatureOff_theRolloutIsStoredButNothingActsOnIt() {
    String rollout = """
        apiVersion: argoproj.io/v1alpha1
        kind: Rollout
        metadata: {name: web, namespace: default}
        spec:
          replicas: 2
          selector: {matchLabels: {app: web}}
          strategy: {canary: {steps: [{setWeight: 50}]}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: web:1, resources: {requests: {cpu: 100m}}}]
        ---
        """;
    String on = node("n1", "") + rollout + scenario("profile: default", "");
    assertThat(at(run(on), "running pods", Duration.ofMinutes(2))).isEqualTo(2);
    SimulationRun off = run(on.replace("queueScaling: false", "queueScaling: false, rollouts: false"));
    assertThat(at(off, "running pods", Duration.ofMinutes(2))).isZero();
    assertThat(off.summary().rollouts()).singleElement().satisfies(r -> assertThat(r.stableRevision()).isEmpty());
  }
}
