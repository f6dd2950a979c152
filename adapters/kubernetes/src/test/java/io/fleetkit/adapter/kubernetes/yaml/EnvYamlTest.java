package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerState;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.Quantity;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A container's {@code env} with {@code valueFrom} and its {@code envFrom} through the YAML loader: every source read
 * and written back, a field selector's absent {@code apiVersion} defaulted to {@code v1}, the pod's validation naming
 * the manifest's field, unknown fields refused; and a container's waiting message both ways.
 */
final class EnvYamlTest {
  private static final String DEPLOYMENT = """
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web, namespace: shop}
      spec:
        replicas: 1
        selector: {matchLabels: {app: web}}
        template:
          metadata: {labels: {app: web}}
          spec:
            containers:
            - name: app
              image: shop:1
              env:
              - {name: MODE, value: live}
              - name: POD_NAME
                valueFrom: {fieldRef: {fieldPath: metadata.name}}
              - name: MEM
                valueFrom: {resourceFieldRef: {resource: limits.memory, divisor: 1Mi}}
              - name: LEVEL
                valueFrom: {configMapKeyRef: {name: app-config, key: level}}
              - name: TOKEN
                valueFrom: {secretKeyRef: {name: app-secret, key: token, optional: true}}
              envFrom:
              - configMapRef: {name: app-config}
              - prefix: DB_
                secretRef: {name: db, optional: true}
      """;

  private static ManifestException parseFails(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "d.yaml"));
    assertThat(e).as("parsing must fail").isNotNull();
    return e;
  }

  private static Container container(String yaml) {
    return ((Deployment) KubernetesYaml.parse(yaml, "d.yaml").objects().get(0)).spec().template().spec()
        .containers().get(0);
  }

  @Test
  void parse_everySource() {
    Container c = container(DEPLOYMENT);
    assertThat(c.env()).containsExactly(new EnvVar("MODE", "live"),
        EnvVar.from("POD_NAME", EnvVarSource.field("metadata.name")),
        EnvVar.from("MEM", EnvVarSource.resource("", "limits.memory", Quantity.parse("1Mi"))),
        EnvVar.from("LEVEL", EnvVarSource.configMapKey("app-config", "level", false)),
        EnvVar.from("TOKEN", EnvVarSource.secretKey("app-secret", "token", true)));
    assertThat(c.envFrom()).containsExactly(EnvFromSource.configMap("app-config", false),
        EnvFromSource.secret("db", true).withPrefix("DB_"));
  }

  @Test
  void dumpThenParse_isIdentity() {
    LoadedObjects first = KubernetesYaml.parse(DEPLOYMENT, "d.yaml");
    String yaml = KubernetesYaml.dump(first.objects());
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).isEqualTo(first.objects());
    assertThat(yaml).contains("configMapKeyRef").contains("secretKeyRef").contains("envFrom")
        .contains("prefix: \"DB_\"").contains("optional: true").contains("fieldPath: \"metadata.name\"")
        .contains("divisor: \"1Mi\"");
    assertThat(first.warnings()).isEmpty();
  }

  @Test
  void invalidFieldPath_isRefusedOnTheManifestsField() {
    ManifestException e = parseFails(DEPLOYMENT.replace("fieldPath: metadata.name", "fieldPath: status.phase"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().object()).isEqualTo("Deployment shop/web");
      assertThat(p.violation().field()).isEqualTo("spec.template.spec.containers[0].env[1].valueFrom.fieldRef"
          + ".fieldPath");
      assertThat(p.violation().rule()).startsWith("Unsupported value: supported values: \"metadata.name\"");
      assertThat(p.violation().value()).isEqualTo("status.phase");
    });
  }

  @Test
  void valueAndValueFrom_isRefused() {
    ManifestException e = parseFails(DEPLOYMENT.replace("- name: LEVEL\n", "- name: LEVEL\n          value: x\n"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.template.spec.containers[0].env[3].valueFrom");
      assertThat(p.violation().rule()).isEqualTo("may not be specified when `value` is not empty");
    });
  }

  @Test
  void envFromWithoutReference_isRefused() {
    ManifestException e = parseFails(DEPLOYMENT.replace("- configMapRef: {name: app-config}", "- prefix: X_"));
    assertThat(e.problems()).singleElement().satisfies(p -> {
      assertThat(p.violation().field()).isEqualTo("spec.template.spec.containers[0].envFrom");
      assertThat(p.violation().rule()).isEqualTo("must specify one of: `configMapRef` or `secretRef`");
    });
  }

  @Test
  void unknownFieldInASelector_isRefusedWithItsPath() {
    ManifestException e = parseFails(DEPLOYMENT.replace("{name: app-config, key: level}",
        "{name: app-config, key: level, keys: [a]}"));
    assertThat(e.getMessage()).contains("spec.template.spec.containers[0].env[3].valueFrom.configMapKeyRef.keys")
        .contains("unknown field");
  }

  @Test
  void explicitApiVersion_isKept_andAnUnsupportedOneRefused() {
    String v1 = DEPLOYMENT.replace("{fieldPath: metadata.name}", "{apiVersion: v1, fieldPath: metadata.name}");
    assertThat(container(v1).env().get(1).valueFrom().fieldRef()).isEqualTo(
        new DownwardAPIVolumeFile.FieldRef("v1", "metadata.name"));
    ManifestException e = parseFails(DEPLOYMENT.replace("{fieldPath: metadata.name}",
        "{apiVersion: v2, fieldPath: metadata.name}"));
    assertThat(e.problems()).singleElement().satisfies(p ->
        assertThat(p.violation().rule()).isEqualTo("error converting fieldPath: unsupported pod version: v2"));
  }

  @Test
  void waitingMessage_roundTrips() {
    String pod = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web-0, namespace: shop}
        spec:
          containers: [{name: app, image: shop:1}]
        status:
          phase: Pending
          containerStatuses:
          - name: app
            ready: false
            restartCount: 0
            state:
              waiting: {reason: CreateContainerConfigError, message: 'configmap "app-config" not found'}
        """;
    Pod p = (Pod) KubernetesYaml.parse(pod, "p.yaml").objects().get(0);
    assertThat(p.status().containerStatuses().get(0).state())
        .isEqualTo(ContainerState.waiting("CreateContainerConfigError", "configmap \"app-config\" not found"));
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(List.of(p)), "dumped").objects()).containsExactly(p);
  }
}
