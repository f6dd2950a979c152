package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Pod;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where loaded objects were written, so that a rule checked after the load can be shown at its line. */
final class ManifestLocationTest {
  private static final String TWO_PODS = """
      apiVersion: v1
      kind: Pod
      metadata: {name: a}
      spec:
        containers:
        - name: c
          image: busybox
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: b}
      spec:
        containers:
        - name: c
          image: busybox
        - name: d
          image: busybox
      """;

  @Test
  void load_givesEachObjectItsDocumentAndFieldLines() {
    LoadedObjects loaded = KubernetesYaml.parse(TWO_PODS, "pods.yaml");
    List<Pod> pods = loaded.ofType(Pod.class);

    ManifestLocation a = loaded.locationOf(pods.get(0)).orElseThrow();
    ManifestLocation b = loaded.locationOf(pods.get(1)).orElseThrow();
    assertThat(a.source()).isEqualTo("pods.yaml");
    assertThat(a.document()).isEqualTo(1);
    assertThat(a.documentLine()).isEqualTo(1);
    assertThat(b.document()).isEqualTo(2);
    assertThat(b.documentLine()).isEqualTo(9);
    assertThat(b.lineOf("spec.containers[1].image")).isEqualTo(17);
    // a path the document does not hold: its closest written ancestor
    assertThat(b.lineOf("spec.containers[1].resources.requests.cpu")).isEqualTo(16);
    assertThat(b.lineOf("spec.nodeName")).isEqualTo(b.lineOf("spec")).isEqualTo(12);
  }

  @Test
  void locationOf_isByIdentity_notByEquality() {
    LoadedObjects loaded = KubernetesYaml.parse(TWO_PODS, "pods.yaml");
    Pod a = loaded.ofType(Pod.class).get(0);

    assertThat(loaded.locationOf(a)).isPresent();
    assertThat(loaded.locationOf(a.toBuilder().build())).isEmpty(); // an equal copy was not read from the file
    assertThat(LoadedObjects.of(List.of(a)).locationOf(a)).isEmpty(); // built in code: no locations
  }

  @Test
  void problem_showsTheViolationAtItsFieldsLine() {
    LoadedObjects loaded = KubernetesYaml.parse(TWO_PODS, "pods.yaml");
    ManifestLocation b = loaded.locationOf(loaded.ofType(Pod.class).get(1)).orElseThrow();

    assertThat(b.problem(new Violation("Pod default/b", "spec.containers[1].image", "is not pulled", "busybox")))
        .hasToString("pods.yaml: document 2 (line 9): Pod default/b: spec.containers[1].image \"busybox\" is not"
            + " pulled (at line 17)");
  }

  @Test
  void locations_mustBeOnePerObjectOrNone() {
    LoadedObjects loaded = KubernetesYaml.parse(TWO_PODS, "pods.yaml");
    ManifestLocation one = new ManifestLocation("x.yaml", 1, 1, Map.of());

    assertThatThrownBy(() -> loaded.withLocations(List.of(one)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 locations for 2 objects");
    assertThat(loaded.withLocations(List.of()).locations()).isEmpty();
    assertThatThrownBy(() -> new ManifestLocation("x.yaml", 0, 1, Map.of()))
        .hasMessageContaining("must be at least 1");
  }
}
