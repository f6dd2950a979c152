package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Kueue's AdmissionChecks in a simulation: a ClusterQueue naming a check is active only while the check is (its
 * controller marks it so), and a Job of the queue starts only once its checks are Ready. The run's controllers are
 * the built-in {@code fleetkit.io/auto-approve} and those of the Scenario's {@code admissionCheckControllers}.
 */
final class KueueAdmissionChecksSimulationTest {
  private static final String CLUSTER = """
      apiVersion: v1
      kind: Namespace
      metadata: {name: team}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: n1, labels: {kubernetes.io/hostname: n1}}
      status:
        capacity: {cpu: "16", memory: 64Gi, pods: "110"}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ResourceFlavor
      metadata: {name: default}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: AdmissionCheck
      metadata: {name: budget}
      spec: {controllerName: %s}
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: ClusterQueue
      metadata: {name: cq}
      spec:
        namespaceSelector: {}
        admissionChecksStrategy: {admissionChecks: [{name: budget}]}
        resourceGroups:
        - coveredResources: [cpu]
          flavors:
          - name: default
            resources: [{name: cpu, nominalQuota: "4"}]
      ---
      apiVersion: kueue.x-k8s.io/v1beta2
      kind: LocalQueue
      metadata: {name: main, namespace: team}
      spec: {clusterQueue: cq}
      ---
      apiVersion: batch/v1
      kind: Job
      metadata:
        name: first
        namespace: team
        labels: {kueue.x-k8s.io/queue-name: main}
      spec:
        suspend: true
        template:
          metadata:
            annotations: {simulate.fleetkit.io/exit-after-seconds: "600"}
          spec:
            restartPolicy: Never
            containers:
            - name: main
              image: job:1
              resources: {requests: {cpu: "4"}}
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: checks}
      spec:
        duration: 30m
        sampleInterval: 1m
        features: {horizontalPodAutoscaler: false, verticalPodAutoscaler: false, storage: false}
      """;

  private static ClusterSimulation simulation(String controllerName, String scenarioExtra) {
    List<ApiObject<?>> objects = KubernetesYaml.parse(CLUSTER.formatted(controllerName) + scenarioExtra,
        "checks.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    return ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s).podEvents(false).build();
  }

  /** When the Job first had a running pod, if it ever had. */
  private static Optional<Duration> started(SimulationRun run) {
    return run.timeline().stream().filter(e -> e.object().equals("Job/team/first")
        && e.message().startsWith("active 1")).map(TimelineEvent::at).findFirst();
  }

  @Test
  void run_checkOfTheAutoApproveController_isActiveAndApprovesAtOnce() {
    SimulationRun run = simulation("fleetkit.io/auto-approve", "").run();

    assertThat(started(run)).hasValueSatisfying(at -> assertThat(at).isLessThan(Duration.ofMinutes(1)));
    assertThat(run.timeline()).noneMatch(e -> e.kind().equals("ClusterQueueInactive"));
  }

  @Test
  void run_checkOfAScenarioController_staysPendingForItsDelayThenTheJobStarts() {
    SimulationRun run = simulation("example.com/budget-approval", """
          admissionCheckControllers:
          - {controllerName: example.com/budget-approval, approveAfter: 4m}
        """).run();

    // the quota is reserved at once; the Job waits, suspended, until the check is Ready 4 minutes later
    assertThat(started(run)).hasValueSatisfying(at -> assertThat(at).isBetween(Duration.ofMinutes(4),
        Duration.ofMinutes(5)));
    assertThat(run.timeline()).filteredOn(e -> e.kind().equals("QueueWaitingForChecks")).singleElement()
        .satisfies(e -> {
          assertThat(e.at()).isLessThan(Duration.ofMinutes(1));
          assertThat(e.object()).isEqualTo("Job/team/first");
          assertThat(e.message()).startsWith("Quota reserved in ClusterQueue cq, waiting for admission checks:"
              + " \"budget\" (Pending: to be approved by example.com/budget-approval at ");
        });
  }

  @Test
  void run_checkOfAControllerTheRunDoesNotHave_leavesTheQueueInactiveAndSaysSo() {
    SimulationRun run = simulation("example.com/unknown", "").run();

    assertThat(started(run)).isEmpty();
    assertThat(run.series("pending workloads cq").orElseThrow().values()).last().isEqualTo(1.0);
    assertThat(run.timeline()).anySatisfy(e -> {
      assertThat(e.kind()).isEqualTo("ClusterQueueInactive");
      assertThat(e.object()).isEqualTo("ClusterQueue/cq");
      assertThat(e.message()).startsWith("AdmissionCheckInactive: ");
    });
  }

  @Test
  void build_controllerOfNoAdmissionCheck_isRefusedNamingTheirControllers() {
    assertThatThrownBy(() -> simulation("fleetkit.io/auto-approve", """
          admissionCheckControllers:
          - {controllerName: example.com/budget-aproval, approveAfter: 4m}
        """)).hasMessageContaining("Scenario checks: spec.admissionCheckControllers[0].controllerName"
        + " \"example.com/budget-aproval\" is the spec.controllerName of no AdmissionCheck among the manifests"
        + " (their controllers: fleetkit.io/auto-approve)");
  }
}
