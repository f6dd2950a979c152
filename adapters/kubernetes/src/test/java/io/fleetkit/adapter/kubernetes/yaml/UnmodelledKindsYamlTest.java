package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Built-in Kubernetes kinds FleetKit does not model load as nothing, with a warning per object, under their real
 * apiVersions only; a misspelled kind, a wrong apiVersion or a custom kind stays an error.
 */
final class UnmodelledKindsYamlTest {

  @ParameterizedTest
  @CsvSource({
      "coordination.k8s.io/v1, Lease", "v1, Event", "events.k8s.io/v1, Event",
      "rbac.authorization.k8s.io/v1, Role", "rbac.authorization.k8s.io/v1, RoleBinding",
      "rbac.authorization.k8s.io/v1, ClusterRole", "rbac.authorization.k8s.io/v1, ClusterRoleBinding",
      "apiextensions.k8s.io/v1, CustomResourceDefinition",
      "admissionregistration.k8s.io/v1, MutatingWebhookConfiguration",
      "admissionregistration.k8s.io/v1, ValidatingWebhookConfiguration", "apiregistration.k8s.io/v1, APIService",
      "storage.k8s.io/v1, CSIDriver", "storage.k8s.io/v1, CSINode", "storage.k8s.io/v1, CSIStorageCapacity",
      "storage.k8s.io/v1, VolumeAttachment", "networking.k8s.io/v1, NetworkPolicy", "v1, PodTemplate",
      "node.k8s.io/v1, RuntimeClass", "flowcontrol.apiserver.k8s.io/v1, FlowSchema",
      "flowcontrol.apiserver.k8s.io/v1, PriorityLevelConfiguration",
      "certificates.k8s.io/v1, CertificateSigningRequest", "v1, ComponentStatus"})
  void parse_builtInKindNotModelled_isIgnoredWithAWarning(String apiVersion, String kind) {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: %s
        kind: %s
        metadata: {name: x, namespace: kube-system}
        spec: {anything: [1, 2]}
        """.formatted(apiVersion, kind), "dump.yaml");

    assertThat(loaded.objects()).isEmpty();
    assertThat(loaded.warnings()).extracting(ManifestProblem::toString).containsExactly(
        "dump.yaml: document 1 (line 1): " + kind + " kube-system/x: kind " + kind + " (" + apiVersion + ") is not"
            + " modelled by FleetKit; ignored (at line 2)");
    assertThat(loaded.warnings().get(0).violation().field()).isEqualTo("kind");
  }

  @Test
  void parse_builtInKindUnderAnotherApiVersion_isRefused() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: v1\nkind: Lease\nmetadata: {name: x}\n", "l.yaml"));

    assertThat(e.getMessage()).isEqualTo("l.yaml: document 1 (line 1): Lease x: apiVersion \"v1\" must be"
        + " coordination.k8s.io/v1 for kind Lease");
  }

  @Test
  void parse_misspelledOrCustomKind_staysAnError() {
    assertThat(catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: v1\nkind: Endpoint\nmetadata: {name: x}\n", "l.yaml")).getMessage())
        .contains("kind \"Endpoint\" is not a supported kind");
    assertThat(catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(
        "apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: x}\n", "l.yaml")).getMessage())
        .contains("kind \"Widget\" is not a supported kind");
  }

  @Test
  void parse_modelledAndUnmodelledKinds_loadsTheModelledOnes() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: coordination.k8s.io/v1
        kind: Lease
        metadata: {name: web}
        spec: {holderIdentity: web-0}
        ---
        apiVersion: v1
        kind: Service
        metadata: {name: web}
        spec:
          selector: {app: web}
          ports: [{port: 80}]
        """, "svc.yaml");

    assertThat(loaded.summary()).isEqualTo("1 object (1 Service)");
    assertThat(loaded.warnings()).hasSize(1);
    assertThat(loaded.warnings().get(0).document()).isEqualTo(1);
  }
}
