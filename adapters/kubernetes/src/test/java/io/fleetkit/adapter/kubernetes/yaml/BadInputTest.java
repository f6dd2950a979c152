package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every kind of bad input gives a {@link ManifestException} whose problems name the file, the document (and its
 * line), the object, the field path and the rule; all problems of all files are reported together.
 */
final class BadInputTest {

  private static final String GOOD_CLAIM = """
      apiVersion: v1
      kind: PersistentVolumeClaim
      metadata: {name: ok, namespace: db}
      spec:
        accessModes: [ReadWriteOnce]
        resources: {requests: {storage: 1Gi}}
      """;

  private static ManifestException parseFails(String yaml, String source) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, source));
    assertThat(e).as("parsing %s must fail", source).isNotNull();
    return e;
  }

  @Test
  void parse_negativeQuantity_namesFileDocumentObjectFieldAndRule() {
    String yaml = GOOD_CLAIM + """
        ---
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data, namespace: db}
        spec:
          accessModes: [ReadWriteOnce]
          resources:
            requests:
              storage: -1
        """;

    ManifestException e = parseFails(yaml, "examples/bad/pvc.yaml");

    assertThat(e.problems()).singleElement().hasToString("examples/bad/pvc.yaml: document 2 (line 8): "
        + "PersistentVolumeClaim db/data: spec.resources.requests.storage \"-1\" must be greater than or equal to 0"
        + " (at line 15)");
  }

  @Test
  void parse_gtLtTolerations_loadedAndBadValuesOrOperatorsNamed() {
    String good = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: prod}
        spec:
          containers: [{name: app, image: nginx}]
          tolerations:
            - {key: node.kubernetes.io/sla, operator: Gt, value: "950", effect: NoSchedule}
            - {key: example.com/cost, operator: Lt, value: "-5"}
        """;
    io.fleetkit.api.core.Pod pod = KubernetesYaml.parse(good, "pod.yaml").ofType(io.fleetkit.api.core.Pod.class)
        .get(0);
    assertThat(pod.spec().tolerations()).containsExactly(
        io.fleetkit.api.scheduling.Toleration.greaterThan("node.kubernetes.io/sla", 950,
            io.fleetkit.api.scheduling.TaintEffect.NoSchedule),
        io.fleetkit.api.scheduling.Toleration.lessThan("example.com/cost", -5, null));

    String bad = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: prod}
        spec:
          containers: [{name: app, image: nginx}]
          tolerations:
            - {key: node.kubernetes.io/sla, operator: Gt, value: "0950"}
            - {key: node.kubernetes.io/sla, operator: Ge, value: "950"}
        """;
    List<ManifestProblem> problems = parseFails(bad, "bad-pod.yaml").problems();
    assertThat(problems).extracting(ManifestProblem::toString).anySatisfy(s -> assertThat(s)
        .contains("Pod prod/web").contains("spec.tolerations[0].value").contains("\"0950\"")
        .contains("must be a valid decimal integer in canonical form"));
    assertThat(problems).extracting(ManifestProblem::toString).anySatisfy(s -> assertThat(s)
        .contains("spec.tolerations[1].operator").contains("\"Ge\"").contains("must be one of Equal, Exists, Lt, Gt"));
  }

  @Test
  void parse_podLevelResources_defaultedAsTheApiServerDoesAndBadOnesNamed() {
    String good = """
        apiVersion: v1
        kind: Pod
        metadata: {name: budget, namespace: prod}
        spec:
          resources:
            limits: {cpu: "4", memory: 4Gi}
          containers:
            - {name: a, image: busybox, resources: {requests: {cpu: 500m}}}
            - {name: b, image: busybox}
        """;
    io.fleetkit.api.core.Pod pod = KubernetesYaml.parse(good, "pod.yaml").ofType(io.fleetkit.api.core.Pod.class)
        .get(0);
    // SetDefaults_Pod: cpu takes the containers' aggregate request, memory (requested by none) its pod-level limit
    assertThat(pod.spec().resources().requests().milliCpu()).isEqualTo(500);
    assertThat(pod.spec().resources().requests().memoryBytes()).isEqualTo(4L << 30);
    assertThat(pod.effectiveRequests().milliCpu()).isEqualTo(500);
    assertThat(pod.effectiveRequests().memoryBytes()).isEqualTo(4L << 30);

    String bad = """
        apiVersion: v1
        kind: Pod
        metadata: {name: budget, namespace: prod}
        spec:
          resources:
            requests: {ephemeral-storage: 1Gi}
          containers:
            - {name: a, image: busybox}
        ---
        apiVersion: v1
        kind: Pod
        metadata: {name: small, namespace: prod}
        spec:
          resources:
            requests: {cpu: "1"}
          containers:
            - {name: a, image: busybox, resources: {requests: {cpu: "2"}}}
        """;
    List<ManifestProblem> problems = parseFails(bad, "bad-pod.yaml").problems();
    assertThat(problems).extracting(ManifestProblem::toString).anySatisfy(s -> assertThat(s)
        .contains("Pod prod/budget").contains("spec.resources.requests.ephemeral-storage")
        .contains("Unsupported value"));
    assertThat(problems).extracting(ManifestProblem::toString).anySatisfy(s -> assertThat(s)
        .contains("Pod prod/small").contains("spec.resources.requests.cpu").contains("aggregate container requests"));
  }

  @Test
  void parse_unsupportedPortProtocol_namesTheContainerPort() {
    String yaml = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers:
            - name: c
              image: c:1
              ports: [{containerPort: 80, hostPort: 80, protocol: HTTP}]
        """;

    ManifestProblem p = parseFails(yaml, "web.yaml").problems().get(0);

    assertThat(p.violation().object()).isEqualTo("Pod default/web");
    assertThat(p.violation().field()).isEqualTo("spec.containers[0].ports[0].protocol");
    assertThat(p.violation().value()).isEqualTo("HTTP");
    assertThat(p.violation().rule()).contains("Unsupported value").contains("\"TCP\"");
  }

  @Test
  void parse_badNodeImages_namesTheImageFields() {
    String yaml = """
        apiVersion: v1
        kind: Node
        metadata: {name: n1}
        status:
          images:
            - {names: [], sizeBytes: 10}
            - {names: ["busybox:1"], sizeBytes: -1}
        """;

    List<ManifestProblem> problems = parseFails(yaml, "node.yaml").problems();

    assertThat(problems).extracting(p -> p.violation().field())
        .containsExactly("status.images[0].names", "status.images[1].sizeBytes");
    assertThat(problems.get(0).violation().object()).isEqualTo("Node n1");
  }

  @Test
  void parse_malformedQuantity_namesTheFieldAndTheQuantityRule() {
    String yaml = """
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: pv}
        spec:
          capacity: {storage: abc}
        """;

    ManifestProblem p = parseFails(yaml, "pv.yaml").problems().get(0);

    assertThat(p.document()).isEqualTo(1);
    assertThat(p.line()).isEqualTo(5);
    assertThat(p.violation().object()).isEqualTo("PersistentVolume pv");
    assertThat(p.violation().field()).isEqualTo("spec.capacity.storage");
    assertThat(p.violation().value()).isEqualTo("abc");
    assertThat(p.toString()).startsWith("pv.yaml: document 1 (line 1): PersistentVolume pv: spec.capacity.storage "
        + "\"abc\" must be a quantity");
  }

  @Test
  void parse_missingName_isReportedWithTheDefaultedNamespace() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata:
          labels: {app: web}
        spec:
          ports: [{port: 80}]
        """;

    ManifestProblem p = parseFails(yaml, "svc.yaml").problems().get(0);

    assertThat(p.toString()).startsWith("svc.yaml: document 1 (line 1): Service default/<unnamed>: metadata.name ")
        .contains("required");
  }

  @Test
  void parse_wrongType_stringWhereListExpected_namesFieldAndBothTypes() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          ports: "80"
        """;

    ManifestProblem p = parseFails(yaml, "svc.yaml").problems().get(0);

    assertThat(p.toString()).isEqualTo("svc.yaml: document 1 (line 1): Service default/web: spec.ports \"80\" must be"
        + " a list, not a string (at line 5)");
  }

  @Test
  void parse_wrongType_inAGenericKind_isReportedToo() {
    String yaml = """
        apiVersion: autoscaling.k8s.io/v1
        kind: VerticalPodAutoscaler
        metadata: {name: v, namespace: ns}
        spec:
          targetRef: {kind: Deployment, name: web}
          recommenders: custom
        """;

    ManifestProblem p = parseFails(yaml, "vpa.yaml").problems().get(0);

    assertThat(p.toString()).isEqualTo("vpa.yaml: document 1 (line 1): VerticalPodAutoscaler ns/v: spec.recommenders"
        + " \"custom\" must be a list, not a string (at line 6)");
  }

  @Test
  void parse_recordRuleBroken_reportsTheCoreApiViolationWithItsPath() {
    // Service names must be DNS-1035 labels: core-api's Service constructor rejects this one.
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: Web_Server}
        spec:
          ports: [{port: 80}]
        """;

    ManifestProblem p = parseFails(yaml, "svc.yaml").problems().get(0);

    assertThat(p.source()).isEqualTo("svc.yaml");
    assertThat(p.document()).isEqualTo(1);
    assertThat(p.violation().object()).isEqualTo("Service default/Web_Server");
    assertThat(p.violation().field()).isEqualTo("metadata.name");
    assertThat(p.line()).isEqualTo(3);
  }

  @Test
  void parse_badEnumValue_listsTheAllowedValues() {
    String yaml = """
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          type: Ingress
          ports: [{port: 80}]
        """;

    ManifestProblem p = parseFails(yaml, "svc.yaml").problems().get(0);

    assertThat(p.toString()).contains("Service default/web: spec.type \"Ingress\" must be one of ClusterIP, "
        + "NodePort, LoadBalancer, ExternalName (at line 5)");
  }

  @Test
  void parse_apiVersionThatDoesNotMatchTheKind_isReported() {
    String yaml = "apiVersion: apps/v1\nkind: Service\nmetadata: {name: web}\n";

    ManifestProblem p = parseFails(yaml, "svc.yaml").problems().get(0);

    assertThat(p.toString()).contains("apiVersion \"apps/v1\" must be v1 for kind Service");
  }

  @Test
  void parse_severalProblemsInOneDocument_reportsThemAll() {
    String yaml = """
        apiVersion: v1
        kind: PersistentVolumeClaim
        metadata: {name: data}
        spec:
          accessModes: [ReadWriteSometimes]
          volumeMode: Sideways
          resources:
            requests: {storage: -5Gi}
        """;

    List<ManifestProblem> problems = parseFails(yaml, "pvc.yaml").problems();

    assertThat(problems).extracting(p -> p.violation().field()).containsExactlyInAnyOrder(
        "spec.accessModes[0]", "spec.volumeMode", "spec.resources.requests.storage");
  }

  @Test
  void load_duplicateAcrossFiles_namesBothPlaces(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), GOOD_CLAIM);
    Files.writeString(dir.resolve("b.yaml"), "# again\n" + GOOD_CLAIM);

    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.load(List.of(dir)));

    assertThat(e.problems()).singleElement().hasToString(dir.resolve("b.yaml") + ": document 1 (line 2): "
        + "PersistentVolumeClaim db/ok: metadata.name \"ok\" must be unique per kind and namespace; already defined"
        + " in " + dir.resolve("a.yaml") + " document 1 (line 1) (at line 4)");
  }

  @Test
  void load_sameNameInOtherNamespaceOrKind_isNotADuplicate(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("a.yaml"), GOOD_CLAIM + "---\n" + GOOD_CLAIM.replace("namespace: db",
        "namespace: other") + "---\napiVersion: v1\nkind: Service\nmetadata: {name: ok, namespace: db}\n"
        + "spec: {ports: [{port: 80}]}\n");

    assertThat(KubernetesYaml.load(List.of(dir)).size()).isEqualTo(3);
  }

  @Test
  void load_problemsInSeveralFiles_areAllReportedAndNothingIsLoaded(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("1-good.yaml"), GOOD_CLAIM);
    Files.writeString(dir.resolve("2-bad.yml"), """
        apiVersion: v1
        kind: Gadget
        metadata: {name: g}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: s}
        spec: {ports: [{port: 80, protocol: TCPX}]}
        """);
    Path sub = Files.createDirectories(dir.resolve("sub"));
    Files.writeString(sub.resolve("3-bad.yaml"), "apiVersion: v1\nkind: PersistentVolume\nmetadata: {}\n"
        + "spec: {capacity: {storage: 1Gi}, accessModes: [ReadWriteOnce], hostPath: {path: /x}}\n");
    Files.writeString(sub.resolve("ignored.txt"), "kind: Nonsense\n");

    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.load(List.of(dir)));

    assertThat(e.problems()).extracting(ManifestProblem::source, ManifestProblem::document).containsExactly(
        org.assertj.core.groups.Tuple.tuple(dir.resolve("2-bad.yml").toString(), 1),
        org.assertj.core.groups.Tuple.tuple(dir.resolve("2-bad.yml").toString(), 2),
        org.assertj.core.groups.Tuple.tuple(sub.resolve("3-bad.yaml").toString(), 1));
    assertThat(e.getMessage()).startsWith("3 problems in manifests:");
  }

  @Test
  void load_allGood_returnsEveryObjectInFileOrder(@TempDir Path dir) throws Exception {
    Files.writeString(dir.resolve("b.yaml"), GOOD_CLAIM);
    Files.writeString(dir.resolve("a.yaml"), "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n"
        + "spec: {ports: [{port: 80}]}\n");

    LoadedObjects loaded = KubernetesYaml.load(List.of(dir));

    assertThat(loaded.objects()).extracting(o -> o.describe())
        .containsExactly("Service default/s", "PersistentVolumeClaim db/ok");
    assertThat(loaded.summary()).isEqualTo("2 objects (1 PersistentVolumeClaim, 1 Service)");
  }
}
