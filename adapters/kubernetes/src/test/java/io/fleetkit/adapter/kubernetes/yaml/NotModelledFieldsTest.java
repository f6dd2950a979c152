package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.apps.Deployment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Fields the Kubernetes schema has and FleetKit's model does not carry are loaded as warnings naming source, line,
 * object and path, once per object at the highest path; fields FleetKit models give none, whatever form they are
 * written in (quantities, int-or-string, explicit defaults).
 */
final class NotModelledFieldsTest {

  private static List<String> warnings(String yaml) {
    return KubernetesYaml.parse(yaml, "m.yaml").warnings().stream().map(ManifestProblem::toString).toList();
  }

  private static List<String> paths(String yaml) {
    return KubernetesYaml.parse(yaml, "m.yaml").warnings().stream().map(w -> w.violation().field()).toList();
  }

  @Test
  void parse_deploymentWithFieldsNotModelled_warnsOncePerHighestPathWithItsLine() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          replicas: 2
          revisionHistoryLimit: 3
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              enableServiceLinks: false
              imagePullSecrets:
              - name: registry-a
              - name: registry-b
              containers:
              - name: c
                image: nginx
                imagePullPolicy: Always
                env: [{name: A, value: b}]
                lifecycle: {preStop: {exec: {command: [sleep, "5"]}}}
                securityContext:
                  runAsUser: 1000
                  capabilities: {add: [NET_ADMIN]}
                resources: {requests: {cpu: 100m}}
        """, "dep.yaml");
    assertThat(loaded.objects()).hasSize(1);
    assertThat(loaded.warnings()).extracting(ManifestProblem::toString).containsExactly(
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.enableServiceLinks not modelled by"
            + " FleetKit; ignored (at line 11)",
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.containers[0].imagePullPolicy not"
            + " modelled by FleetKit; ignored (at line 18)",
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.containers[0].securityContext not"
            + " modelled by FleetKit; ignored (at line 21)");
    ManifestProblem first = loaded.warnings().get(0);
    assertThat(first.source()).isEqualTo("dep.yaml");
    assertThat(first.line()).isEqualTo(11);
    assertThat(first.violation().object()).isEqualTo("Deployment default/web");
    assertThat(first.violation().rule()).isEqualTo(LoadedObjects.NOT_MODELLED);
    // env, lifecycle, imagePullSecrets and revisionHistoryLimit are modelled: no warning, and the object carries them.
    assertThat(loaded.ofType(Deployment.class).get(0).spec().revisionHistoryLimit()).isEqualTo(3);
    assertThat(loaded.ofType(Deployment.class).get(0).spec().template().spec().imagePullSecrets())
        .containsExactly("registry-a", "registry-b");
  }

  @Test
  void parse_podFieldsNotModelled_warnedPerContainerIndex() {
    assertThat(warnings("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: team}
        spec:
          securityContext: {fsGroup: 2000}
          containers:
          - {name: a, image: i}
          - name: b
            image: i
            workingDir: /w
        """)).containsExactly(
        "m.yaml: document 1 (line 1): Pod team/p: spec.securityContext not modelled by FleetKit; ignored (at line 5)",
        "m.yaml: document 1 (line 1): Pod team/p: spec.containers[1].workingDir not modelled by FleetKit; ignored"
            + " (at line 10)");
  }

  @Test
  void parse_podServiceAccountAndDnsFields_modelled_noWarning() {
    assertThat(warnings("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          selector: {matchLabels: {app: d}}
          template:
            metadata: {labels: {app: d}}
            spec:
              serviceAccountName: builder
              serviceAccount: builder
              automountServiceAccountToken: true
              dnsPolicy: ClusterFirst
              dnsConfig:
                nameservers: [1.1.1.1]
                searches: [svc.example.com]
                options: [{name: ndots, value: "1"}, {name: edns0}]
              hostAliases:
              - ip: 10.0.0.1
                hostnames: [foo]
              hostNetwork: true
              imagePullSecrets: [{name: registry}]
              containers: [{name: c, image: i}]
        """)).isEmpty();
  }

  @Test
  void parse_serviceGenerateName_warned_andItsModelledFieldsInOtherFormsAreNot() {
    assertThat(warnings("""
        apiVersion: v1
        kind: Service
        metadata: {name: s, generateName: s-}
        spec:
          type: ClusterIP
          selector: {app: web}
          sessionAffinity: None
          ports: [{name: http, port: 80, targetPort: http, protocol: TCP}]
        """)).containsExactly(
        "m.yaml: document 1 (line 1): Service default/s: metadata.generateName not modelled by FleetKit; ignored"
            + " (at line 3)");
  }

  @Test
  void parse_nodeStatusNotModelled_warned_managedFieldsNot() {
    assertThat(warnings("""
        apiVersion: v1
        kind: Node
        metadata:
          name: n1
          managedFields: [{manager: kubelet, operation: Update}]
        status:
          capacity: {cpu: "4", memory: 8Gi, pods: "110"}
          allocatable: {cpu: 4000m, memory: 8Gi}
          nodeInfo: {kubeletVersion: v1.30.0, osImage: Ubuntu}
          conditions: [{type: Ready, status: "True"}]
        """)).containsExactly(
        "m.yaml: document 1 (line 1): Node n1: status.nodeInfo not modelled by FleetKit; ignored (at line 9)");
  }

  @Test
  void parse_jobFieldsNotModelled_warned_explicitDefaultsNot() {
    assertThat(paths("""
        apiVersion: batch/v1
        kind: Job
        metadata: {name: j}
        spec:
          manualSelector: false
          backoffLimit: 6
          completions: 1
          parallelism: 1
          suspend: false
          template:
            spec:
              restartPolicy: Never
              terminationGracePeriodSeconds: 30
              containers:
              - name: c
                image: i
                command: [sh, -c, exit 0]
                resources: {requests: {cpu: 1, memory: 1Gi}}
        """)).containsExactly("spec.manualSelector", "spec.template.spec.containers[0].command");
  }

  @Test
  void parse_modelledFieldsWrittenInAnotherForm_noWarning() {
    assertThat(warnings("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: d}
        spec:
          replicas: 1
          revisionHistoryLimit: 10
          progressDeadlineSeconds: 600
          minReadySeconds: 0
          paused: false
          strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 25%, maxUnavailable: 25%}}
          selector: {matchLabels: {app: d}}
          template:
            metadata: {labels: {app: d}}
            spec:
              restartPolicy: Always
              containers:
              - name: c
                image: i
                ports: [{containerPort: 80, name: http, protocol: TCP}]
                resources: {requests: {cpu: 1, memory: "1073741824"}, limits: {cpu: 1000m, memory: 1Gi}}
                readinessProbe: {httpGet: {port: http, path: /}, periodSeconds: 10}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: d}
        spec:
          selector: {app: d}
          ports: [{name: a, port: 80, targetPort: http}, {name: b, port: 81, targetPort: 8081}]
        """)).isEmpty();
  }

  @Test
  void parse_gatewayClassSupportedFeatures_readPastByTheConverter_warned() {
    // GatewayClassConverter reads past status.supportedFeatures on purpose; the user still learns it is ignored.
    assertThat(paths("""
        apiVersion: gateway.networking.k8s.io/v1
        kind: GatewayClass
        metadata: {name: gc}
        spec: {controllerName: example.com/gateway}
        status:
          conditions:
          - {type: Accepted, status: "True", reason: Accepted, lastTransitionTime: "2024-01-01T00:00:00Z"}
          supportedFeatures: [{name: HTTPRoute}]
        """)).containsExactly("status.supportedFeatures");
  }

  @Test
  void parse_ingressClassParameters_aStructuredFieldNamedLikeAFreeFormMap_warned() {
    assertThat(paths("""
        apiVersion: networking.k8s.io/v1
        kind: IngressClass
        metadata: {name: nginx}
        spec:
          controller: k8s.io/ingress-nginx
          parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb}
        """)).containsExactly("spec.parameters");
  }

  @Test
  void parse_unknownFieldsIgnoredOnRequest_areNotAlsoNotModelledWarnings() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c, image: i, resurces: {requests: {cpu: 1}}, workingDir: /w}]
        """, "m.yaml", FieldValidation.IGNORE);
    assertThat(loaded.warnings()).extracting(w -> w.violation().field())
        .containsExactly("spec.containers[0].workingDir");
  }

  @Test
  void parse_sameFieldInManyObjects_oneWarningPerObject() {
    StringBuilder yaml = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      yaml.append("---\napiVersion: v1\nkind: Pod\nmetadata: {name: p").append(i)
          .append("}\nspec:\n  containers: [{name: c, image: i, imagePullPolicy: IfNotPresent}]\n");
    }
    LoadedObjects loaded = KubernetesYaml.parse(yaml.toString(), "m.yaml");
    assertThat(loaded.warnings()).hasSize(50).allSatisfy(w -> assertThat(w.violation().field())
        .isEqualTo("spec.containers[0].imagePullPolicy"));
    assertThat(loaded.warnings().get(49).violation().object()).isEqualTo("Pod default/p49");
    assertThat(loaded.warnings().get(49).line()).isEqualTo(49 * 6 + 6);
  }

  @Test
  void load_shippedExamples_noWarning() throws Exception {
    // Each example directory is one scenario (names repeat across them), so each is loaded on its own.
    List<Path> dirs;
    try (Stream<Path> list = Files.list(Path.of("..", "..", "examples"))) {
      // real-cluster-dump is a cluster's dump as kubectl prints it: its server fields are warned of by design
      dirs = list.filter(Files::isDirectory).filter(d -> !d.getFileName().toString().contains("bad"))
          .filter(d -> !d.getFileName().toString().equals("real-cluster-dump")).sorted().toList();
    }
    assertThat(dirs).isNotEmpty();
    for (Path d : dirs) {
      assertThat(KubernetesYaml.load(List.of(d)).warnings()).as(d.toString()).isEmpty();
    }
    // The pod deploy/kubernetes gives to try the scheduler (DeployManifestsTest loads it too).
    Path samplePod = Path.of("..", "..", "deploy", "kubernetes", "sample-pod.yaml");
    assertThat(KubernetesYaml.load(List.of(samplePod)).warnings()).as(samplePod.toString()).isEmpty();
  }

  @Test
  void dump_everyRoundTripFixture_loadsBackWithoutWarning() {
    for (String f : List.of("node", "pod", "service", "controllerrevision", "cronjob", "daemonset",
        "persistentvolume", "persistentvolumeclaim", "storageclass", "horizontalpodautoscaler",
        "verticalpodautoscaler", "verticalpodautoscalercheckpoint", "deviceclass", "devicetaintrule",
        "resourceslice", "resourceclaim", "resourceclaimtemplate")) {
      String name = "roundtrip/" + f + ".yaml";
      LoadedObjects first = KubernetesYaml.parse(RoundTripTest.resource(name), name);
      assertThat(first.warnings()).as(name).isEmpty();
      assertThat(KubernetesYaml.parse(KubernetesYaml.dump(first.objects()), name).warnings()).as(name).isEmpty();
    }
  }
}
