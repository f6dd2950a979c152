package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetUpdateStrategy;
import io.fleetkit.api.apps.DaemonSetUpdateStrategyType;
import io.fleetkit.api.apps.RollingUpdateDaemonSet;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.IntOrPercent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** DaemonSet through the loader: Kubernetes' defaults filled in, explicit settings kept, bad ones named. */
final class DaemonSetYamlTest {

  private static DaemonSet named(List<ApiObject<?>> objects, String name) {
    return objects.stream().filter(DaemonSet.class::isInstance).map(DaemonSet.class::cast)
        .filter(o -> o.metadata().name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void parse_fixture_defaultsAndExplicitStrategies() {
    List<ApiObject<?>> objects = RoundTripTest.load("roundtrip/daemonset.yaml");

    DaemonSet exporter = named(objects, "node-exporter");
    assertThat(exporter.metadata().namespace()).isEqualTo("monitoring");
    assertThat(exporter.spec().updateStrategy()).isEqualTo(DaemonSetUpdateStrategy.ROLLING_UPDATE);
    assertThat(exporter.spec().revisionHistoryLimit()).isEqualTo(10);
    assertThat(exporter.spec().template().spec().nodeSelector()).containsEntry("kubernetes.io/os", "linux");
    assertThat(exporter.spec().template().spec().tolerations()).hasSize(1);

    DaemonSet cni = named(objects, "cni");
    assertThat(cni.spec().updateStrategy().rollingUpdate())
        .isEqualTo(new RollingUpdateDaemonSet(IntOrPercent.ZERO, IntOrPercent.ofPercent(20)));
    assertThat(cni.spec().minReadySeconds()).isEqualTo(5);
    assertThat(cni.spec().revisionHistoryLimit()).isEqualTo(3);
    assertThat(cni.status().desiredNumberScheduled()).isEqualTo(3);
    assertThat(cni.status().numberUnavailable()).isEqualTo(1);
    assertThat(cni.status().collisionCount()).isEqualTo(1);
    assertThat(cni.status().observedGeneration()).isEqualTo(4);

    assertThat(named(objects, "logs").spec().updateStrategy().type()).isEqualTo(DaemonSetUpdateStrategyType.OnDelete);
  }

  @Test
  void parse_onlyMaxSurgeGiven_maxUnavailableDefaultsToOneAndBothNonZeroIsRefused() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: a}
        spec:
          selector: {matchLabels: {app: a}}
          updateStrategy: {rollingUpdate: {maxSurge: 1}}
          template: {metadata: {labels: {app: a}}, spec: {containers: [{name: a, image: a}]}}
        """, "ds.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "DaemonSet default/a: spec.updateStrategy.rollingUpdate.maxSurge \"1\" may not be set when maxUnavailable is"
            + " non-zero");
  }

  @Test
  void parse_badSpec_everyViolationNamed() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: a}
        spec:
          selector: {matchLabels: {app: a}}
          updateStrategy: {rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}
          template: {metadata: {labels: {app: b}}, spec: {restartPolicy: Never, containers: [{name: a, image: a}]}}
        ---
        apiVersion: apps/v1
        kind: DaemonSet
        metadata: {name: b}
        spec:
          selector: {matchLabels: {app: b}}
          minReadySeconds: -1
          updateStrategy: {rollingUpdate: {maxUnavailable: 101%}}
          template: {metadata: {labels: {app: b}}, spec: {containers: [{name: a, image: a}]}}
        """, "ds.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "DaemonSet default/a: spec.template.metadata.labels \"{app=b}\" `selector` does not match template `labels`",
        "DaemonSet default/a: spec.template.spec.restartPolicy \"Never\" Unsupported value: supported values:"
            + " \"Always\"",
        "DaemonSet default/a: spec.updateStrategy.rollingUpdate.maxUnavailable Required value: cannot be 0 when"
            + " maxSurge is 0",
        "DaemonSet default/b: spec.minReadySeconds \"-1\" must be greater than or equal to 0",
        "DaemonSet default/b: spec.updateStrategy.rollingUpdate.maxUnavailable \"101%\" must not be greater than"
            + " 100%");
  }

  @Test
  void dump_defaults_leftOut() {
    String yaml = KubernetesYaml.dump(List.of(DaemonSet.builder().name("x").matchLabels(java.util.Map.of("a", "b"))
        .podSpec(io.fleetkit.api.core.PodSpec.builder().container("a", "a:1",
            io.fleetkit.api.resource.ResourceList.EMPTY).build()).build()));

    assertThat(yaml).contains("kind: \"DaemonSet\"").doesNotContain("updateStrategy")
        .doesNotContain("revisionHistoryLimit");
  }
}
