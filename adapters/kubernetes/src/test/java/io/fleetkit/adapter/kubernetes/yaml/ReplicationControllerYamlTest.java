package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.core.ReplicationControllerCondition;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** core/v1 ReplicationController read (with the API server's defaults) and written; bad ones refused by field. */
final class ReplicationControllerYamlTest {

  static List<ReplicationController> fixture() {
    return KubernetesYaml.parse(RoundTripTest.resource("roundtrip/replicationcontroller.yaml"), "rc.yaml")
        .ofType(ReplicationController.class);
  }

  @Test
  void parse_fullObject_keepsEveryField() {
    ReplicationController rc = fixture().get(0);
    assertThat(rc.metadata().namespace()).isEqualTo("shop");
    assertThat(rc.spec().replicas()).isEqualTo(3);
    assertThat(rc.spec().minReadySeconds()).isEqualTo(10);
    assertThat(rc.spec().selector()).isEqualTo(Map.of("app", "frontend", "tier", "front"));
    assertThat(rc.metadata().labels()).isEqualTo(Map.of("tier", "front"));
    assertThat(rc.status().availableReplicas()).isEqualTo(1);
    assertThat(rc.status().conditions()).singleElement().satisfies(c -> {
      assertThat(c.type()).isEqualTo(ReplicationControllerCondition.REPLICA_FAILURE);
      assertThat(c.reason()).isEqualTo("FailedCreate");
    });
  }

  @Test
  void parse_noSelectorNoReplicas_defaultedFromTemplate() {
    ReplicationController rc = fixture().get(1);
    assertThat(rc.metadata().namespace()).isEqualTo("default");
    assertThat(rc.spec().replicas()).isEqualTo(1);
    assertThat(rc.spec().selector()).isEqualTo(Map.of("app", "redis"));
    assertThat(rc.metadata().labels()).isEqualTo(Map.of("app", "redis"));
    assertThat(KubernetesYaml.dump(List.of(rc))).contains("kind: \"ReplicationController\"")
        .contains("apiVersion: \"v1\"").contains("selector:");
  }

  @Test
  void parse_selectorNotMatchingTemplate_refusedNamingTheField() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: ReplicationController
        metadata: {name: web}
        spec:
          replicas: -1
          selector: {app: other}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers: [{name: web, image: nginx}]
        """, "rc.yaml"));
    assertThat(e.getMessage()).contains("ReplicationController default/web")
        .contains("spec.replicas").contains("spec.template.metadata.labels")
        .contains("`selector` does not match template `labels`");
  }

  @Test
  void parse_noTemplate_refusedAsRequired() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: v1
        kind: ReplicationController
        metadata: {name: web}
        spec:
          selector: {app: web}
        """, "rc.yaml"));
    assertThat(e.getMessage()).contains("spec.template").contains("Required");
  }
}
