package io.fleetkit.simulator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.adapter.kubernetes.yaml.KubernetesYaml;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.simulation.Scenario;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A simulation whose queues are Kueue's own manifests (ResourceFlavor, ClusterQueue, LocalQueue). */
final class KueueManifestQueuesTest {
  private static final String CLUSTER = """
      apiVersion: v1
      kind: Namespace
      metadata: {name: team, labels: {tier: gold}}
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
      kind: ClusterQueue
      metadata: {name: cq}
      spec:
        namespaceSelector: %s
        resourceGroups:
        - coveredResources: [cpu]
          flavors:
          - name: default
            resources: [{name: cpu, nominalQuota: "4"}]
      ---
      apiVersion: kueue.x-k8s.io/v1beta1
      kind: LocalQueue
      metadata: {name: main, namespace: team}
      spec: {clusterQueue: cq}
      """;

  private static String job(String name) {
    return """
        ---
        apiVersion: batch/v1
        kind: Job
        metadata:
          name: %s
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
        """.formatted(name);
  }

  private static final String SCENARIO = """
      ---
      apiVersion: simulation.fleetkit.io/v1
      kind: Scenario
      metadata: {name: manifest-queues}
      spec:
        duration: 30m
        sampleInterval: 1m
        features: {horizontalPodAutoscaler: false, verticalPodAutoscaler: false, storage: false%s}
      %s""";

  private static ClusterSimulation simulation(String selector, String features, String scenarioExtra) {
    List<ApiObject<?>> objects = KubernetesYaml.parse(CLUSTER.formatted(selector) + job("first") + job("second")
        + SCENARIO.formatted(features, scenarioExtra), "kueue.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    return ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s).podEvents(false).build();
  }

  private static List<Double> series(SimulationRun run, String name) {
    return run.series(name).orElseThrow(() -> new AssertionError("no series " + name + " in "
        + run.series().stream().map(TimeSeries::name).toList())).values();
  }

  private static double at(SimulationRun run, String name, int minute) {
    return series(run, name).get(run.sampleTimes().indexOf(Duration.ofMinutes(minute)));
  }

  @Test
  void run_manifestClusterQueue_secondJobWaitsForQuotaThenIsAdmitted() {
    SimulationRun run = simulation("{}", "", "").run();

    // 4 CPUs of quota for two 4-CPU jobs of 10 minutes: one runs, one waits, then it runs
    assertThat(at(run, "admitted workloads cq", 1)).isEqualTo(1);
    assertThat(at(run, "pending workloads cq", 1)).isEqualTo(1);
    assertThat(at(run, "admitted workloads cq", 15)).isEqualTo(1);
    assertThat(at(run, "pending workloads cq", 15)).isZero();
    assertThat(at(run, "admitted workloads cq", 25)).isZero();
  }

  @Test
  void run_namespaceSelector_matchesTheManifestsNamespaceLabels() {
    SimulationRun gold = simulation("{matchLabels: {tier: gold}}", "", "").run();
    SimulationRun silver = simulation("{matchLabels: {tier: silver}}", "", "").run();

    assertThat(at(gold, "admitted workloads cq", 1)).isEqualTo(1);
    assertThat(series(silver, "admitted workloads cq")).containsOnly(0.0);
    assertThat(series(silver, "pending workloads cq")).contains(2.0);
  }

  @Test
  void run_queueAdmissionOff_jobsAreNotQueued() {
    SimulationRun run = simulation("{}", ", queueAdmission: false", "").run();

    assertThat(run.series("admitted workloads cq")).isEmpty();
  }

  @Test
  void build_scenarioQueueOfAManifestClusterQueuesName_isRefusedNamingBothPlaces() {
    String queues = """
          queues:
          - {name: cq, namespaces: [team], flavor: {name: default}, quota: {cpu: "1"}}
          - {name: main, namespaces: [team], flavor: {name: other}, quota: {cpu: "1"}}
        """;
    assertThatThrownBy(() -> simulation("{}", "", queues))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("Scenario manifest-queues: spec.queues[0].name \"cq\" would define ClusterQueue cq,"
            + " which a kueue.x-k8s.io/v1beta2 manifest defines too; define it in one place")
        .hasMessageContaining("spec.queues[0].flavor \"default\" would define ResourceFlavor default")
        .hasMessageContaining("spec.queues[1].namespaces[0] \"team\" would define LocalQueue team/main")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("spec.queues[1].name \""));
  }

  @Test
  void build_localQueueOfAMissingClusterQueue_isRefused() {
    List<ApiObject<?>> objects = KubernetesYaml.parse(CLUSTER.formatted("{}").replace("clusterQueue: cq",
        "clusterQueue: gone") + SCENARIO.formatted("", ""), "kueue.yaml").objects();
    Scenario s = objects.stream().filter(o -> o instanceof Scenario).map(o -> (Scenario) o).findFirst()
        .orElseThrow();
    assertThatThrownBy(() -> ClusterSimulation.builder().objects(Examples.withoutScenario(objects)).scenario(s)
        .build())
        .hasMessageContaining("LocalQueue team/main: spec.clusterQueue \"gone\" names no ClusterQueue among the"
            + " manifests (ClusterQueues: cq)");
  }

  @Test
  void build_streamQueueAndLocalQueueReferences_areCheckedAgainstTheManifests() {
    String ok = """
          jobStreams:
          - {name: s, namespace: team, queue: main, poisson: {perHour: 1, pods: 1, requests: {cpu: "1"}, runFor: 1m}}
        """;
    simulation("{}", "", ok); // the LocalQueue team/main of the manifests
    assertThatThrownBy(() -> simulation("{}", "", ok.replace("queue: main", "queue: nope")))
        .hasMessageContaining("spec.jobStreams[0].queue \"nope\" must name one of spec.queues [] or a LocalQueue of"
            + " namespace team among the manifests [team/main]");
  }
}
