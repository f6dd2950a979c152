package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.meta.ApiObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ControllerRevision through the loader: data in the patch form Kubernetes' controllers write, read and written. */
final class ControllerRevisionYamlTest {

  private static ControllerRevision named(List<ApiObject<?>> objects, String name) {
    return objects.stream().filter(ControllerRevision.class::isInstance).map(ControllerRevision.class::cast)
        .filter(o -> o.metadata().name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void parse_fixture_templateRevisionAndOwner() {
    List<ApiObject<?>> objects = RoundTripTest.load("roundtrip/controllerrevision.yaml");

    ControllerRevision r = named(objects, "web-7b9d8c6f5");
    assertThat(r.revision()).isEqualTo(3);
    assertThat(r.data().labels()).containsEntry("app", "web");
    assertThat(r.data().spec().containers()).singleElement().satisfies(c -> assertThat(c.image())
        .isEqualTo("nginx:1.27"));
    assertThat(r.metadata().controllerRef().kind()).isEqualTo("StatefulSet");
    ControllerRevision orphan = named(objects, "web-orphan");
    assertThat(orphan.revision()).isZero();
    assertThat(orphan.metadata().namespace()).isEqualTo("default");
  }

  @Test
  void dump_revision_dataAsTemplateReplacingPatch() {
    String yaml = KubernetesYaml.dump(List.of(named(RoundTripTest.load("roundtrip/controllerrevision.yaml"),
        "web-7b9d8c6f5")));

    assertThat(yaml).contains("kind: \"ControllerRevision\"").contains("$patch: \"replace\"")
        .contains("revision: 3");
  }

  @Test
  void parse_badData_namesFieldAndRule() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata: {name: a}
        data: {spec: {template: {metadata: {labels: {app: a}}}, replicas: 3}}
        revision: 1
        ---
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata: {name: b}
        revision: -1
        ---
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata: {name: c}
        data: {spec: {template: {$patch: merge}}}
        ---
        apiVersion: apps/v1
        kind: ControllerRevision
        metadata: {name: d}
        data: {spec: {template: {spec: {containers: [{name: x, image: y}]}}}}
        revision: -2
        """, "revisions.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "ControllerRevision default/a: data.spec.replicas is not supported: FleetKit keeps a revision's pod template"
            + " only (data.spec.template)",
        "ControllerRevision default/b: data is required (data is mandatory)",
        "ControllerRevision default/c: data.spec.template.$patch \"merge\" must be \"replace\" (a revision replaces"
            + " the template)",
        "ControllerRevision default/d: revision \"-2\" must be greater than or equal to 0");
  }
}
