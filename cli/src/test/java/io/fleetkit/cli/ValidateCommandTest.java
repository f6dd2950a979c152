package io.fleetkit.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

final class ValidateCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return CliHarness.run(out, err, args);
  }

  private static Path examples() {
    return CliHarness.example("gpu-cluster");
  }

  @Test
  void validate_exampleDirectory_printsCountsPerKindAndExitsZero() {
    int code = run("validate", examples().toString());

    assertThat(code).isZero();
    assertThat(out.toString().strip())
        .isEqualTo("OK: 16 objects (2 Deployment, 1 Job, 5 Node, 5 Pod, 2 PriorityClass, 1 Service)");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void validate_badFiles_printsEveryProblemOnStderrAndExitsOne(@TempDir Path dir) throws Exception {
    Path pods = dir.resolve("pods.yaml");
    Files.writeString(pods, """
        apiVersion: v1
        kind: Pod
        metadata: {name: ok}
        spec:
          containers: [{name: c, image: busybox}]
        ---
        apiVersion: v1
        kind: Pod
        metadata:
          name: web
        spec:
          containers:
          - name: c
            image: busybox
            resources:
              requests:
                cpu: "-1"
        """);
    Path gizmo = dir.resolve("gizmo.yaml");
    Files.writeString(gizmo, "apiVersion: example.com/v1\nkind: Gizmo\nmetadata: {name: g}\n");

    int code = run("validate", pods.toString(), gizmo.toString());

    assertThat(code).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString().lines()).containsExactly(
        pods + ": document 2 (line 7): Pod default/web: spec.containers[0].resources.requests.cpu \"-1\" must be"
            + " greater than or equal to 0 (at line 17)",
        gizmo + ": document 1 (line 1): Gizmo g: kind \"Gizmo\" is not a supported kind (supported: AdmissionCheck,"
            + " AnalysisRun, AnalysisTemplate, ClusterQueue, Cohort, ConfigMap, ControllerRevision, CronJob, DaemonSet,"
            + " Deployment,"
            + " DeviceClass,"
            + " DeviceTaintRule,"
            + " EndpointSlice, Endpoints, Gateway, GatewayClass,"
            + " HTTPRoute, HorizontalPodAutoscaler, Ingress, IngressClass, Job, LimitRange, LocalQueue, Namespace, Node,"
            + " NodePool,"
            + " PersistentVolume, PersistentVolumeClaim, Pod, PodDisruptionBudget, PodGroup, PriorityClass,"
            + " ReferenceGrant, ReplicaSet, ReplicationController, ResourceClaim, ResourceClaimTemplate, ResourceFlavor,"
            + " ResourceQuota,"
            + " ResourceSlice,"
            + " Rollout, Scenario, Secret, Service, ServiceAccount,"
            + " StatefulSet, StorageClass, Topology,"
            + " VerticalPodAutoscaler, VerticalPodAutoscalerCheckpoint, WorkloadPriorityClass) (at line 2)");
  }

  @Test
  void validate_kueueExample_countsKueuesKinds() {
    int code = run("validate", CliHarness.example("kueue").toString());

    assertThat(code).as(err.toString()).isZero();
    assertThat(out.toString().strip()).isEqualTo("OK: 19 objects (1 AdmissionCheck, 2 ClusterQueue, 1 Job,"
        + " 2 LocalQueue, 2 Namespace, 5 Node, 2 NodePool, 2 ResourceFlavor, 1 Scenario, 1 WorkloadPriorityClass)");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void validate_badKueueQueue_namesTheObjectTheFieldAndKueuesRule(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("queues.yaml");
    Files.writeString(file, """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: research}
        spec:
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: a100
              resources: [{name: cpu, nominalQuota: "8", lendingLimit: "4"}]
        """);

    int code = run("validate", file.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo(file + ": document 1 (line 1): ClusterQueue research:"
        + " spec.resourceGroups[0].flavors[0].resources[0].lendingLimit \"4\" must be nil when cohort is empty"
        + " (at line 9)");
  }

  @Test
  void validate_kueueObjectsAcrossEachOtherAndAScenario_areCheckedAsASimulationChecksThem(@TempDir Path dir)
      throws Exception {
    Path queues = dir.resolve("queues.yaml");
    Files.writeString(queues, """
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ResourceFlavor
        metadata: {name: default}
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: ClusterQueue
        metadata: {name: research}
        spec:
          namespaceSelector: {}
          resourceGroups:
          - coveredResources: [cpu]
            flavors:
            - name: default
              resources: [{name: cpu, nominalQuota: "8"}]
        ---
        apiVersion: kueue.x-k8s.io/v1beta2
        kind: LocalQueue
        metadata: {name: main, namespace: team}
        spec:
          clusterQueue: reserach
        """);
    Path scenario = dir.resolve("scenario.yaml");
    Files.writeString(scenario, """
        apiVersion: simulation.fleetkit.io/v1
        kind: Scenario
        metadata: {name: day}
        spec:
          duration: 1h
          queues:
          - name: research
            namespaces: [team]
            flavor: {name: gpu}
            quota: {cpu: "4"}
        """);

    int code = run("validate", dir.toString());

    assertThat(code).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    // the same messages a simulation refuses the manifests with, at the line of the field
    assertThat(err.toString().lines()).containsExactly(
        queues + ": document 3 (line 16): LocalQueue team/main: spec.clusterQueue \"reserach\" names no"
            + " ClusterQueue among the manifests (ClusterQueues: research) (at line 20)",
        scenario + ": document 1 (line 1): Scenario day: spec.queues[0].name \"research\" would define"
            + " ClusterQueue research, which a kueue.x-k8s.io/v1beta2 manifest defines too; define it in one place,"
            + " the scenario's spec.queues/spec.cohorts or Kueue's manifests (at line 7)");
  }

  @Test
  void validate_tenancyExample_knowsTheNamespaceKinds() {
    int code = run("validate", CliHarness.example("tenancy").toString());

    assertThat(code).isZero();
    assertThat(out.toString().strip()).isEqualTo("OK: 17 objects (1 LimitRange, 2 Namespace, 4 Node, 6 Pod,"
        + " 2 ResourceQuota, 1 Secret, 1 ServiceAccount)");
    assertThat(err.toString()).isEmpty();
  }

  @Test
  void validate_badNamespaceKinds_namesObjectAndFieldWithoutPrintingSecretValues(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("tenancy.yaml");
    Files.writeString(file, """
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cfg, namespace: team-a}
        data: {mode: fast}
        ---
        apiVersion: v1
        kind: Secret
        metadata: {name: db, namespace: team-a}
        stringData: {"bad key!": hunter2-value}
        ---
        apiVersion: v1
        kind: ResourceQuota
        metadata: {name: q, namespace: team-a}
        spec:
          hard: {pods: "-1"}
        """);

    int code = run("validate", file.toString());

    assertThat(code).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString().lines()).containsExactly(
        file + ": document 2 (line 6): Secret team-a/db: data[bad key!] \"bad key!\" a valid config key must consist"
            + " of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex"
            + " used for validation is '[-._a-zA-Z0-9]+')",
        file + ": document 3 (line 11): ResourceQuota team-a/q: spec.hard.pods \"-1\" must be greater than or equal"
            + " to 0 (at line 15)");
    assertThat(err.toString()).doesNotContain("hunter2-value");
  }

  @Test
  void validate_missingFile_saysSoAndExitsOne(@TempDir Path dir) {
    Path missing = dir.resolve("nope.yaml");

    int code = run("validate", missing.toString());

    assertThat(code).isEqualTo(1);
    assertThat(err.toString().strip()).isEqualTo(missing + ": file does not exist");
  }

  @Test
  void validate_withoutArguments_isAUsageErrorWithExitTwo() {
    int code = run("validate");

    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("Missing required parameter").contains("FILE|DIR");
  }
}
