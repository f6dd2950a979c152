package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.PersistentVolume;
import io.fleetkit.api.core.PersistentVolumeSource;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.VolumeSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidatePersistentVolumes} and {@code TestPVVolumeMode} that only a manifest can spell (a value none
 * of FleetKit's enums holds): refused where the manifest is read, naming the field. The core-api test
 * {@code PersistentVolumeValidationUpstreamTest} runs the tables' other cases. Also: a volume's host path
 * {@code type} and a downward API file's {@code divisor} reach the checks from a manifest.
 */
final class PersistentVolumeUpstreamYamlTest {

  private static String pv(String name, String specExtra) {
    return """
        apiVersion: v1
        kind: PersistentVolume
        metadata: {name: %s}
        spec:
          capacity: {storage: 10G}
          accessModes: [ReadWriteOnce]
          hostPath: {path: /foo, type: Directory}
        """.formatted(name) + specExtra.indent(2);
  }

  private static List<String> refusedFields(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "pv.yaml"));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(p -> p.violation().field()).toList();
  }

  static Stream<Arguments> enumCases() {
    return Stream.of(
        // TestValidatePersistentVolumes "invalid-accessmode" (its list replaces the default one); the loader names
        // the item, where upstream's NotSupported names the list
        Arguments.of("invalid-accessmode", pv("foo", "").replace("[ReadWriteOnce]", "[fakemode]"),
            "spec.accessModes[0]"),
        Arguments.of("invalid-reclaimpolicy", pv("foo", "persistentVolumeReclaimPolicy: fakeReclaimPolicy"),
            "spec.persistentVolumeReclaimPolicy"),
        Arguments.of("invalid-volume-mode", pv("foo", "volumeMode: fakeVolumeMode"), "spec.volumeMode"),
        // TestPVVolumeMode "invalid value"
        Arguments.of("TestPVVolumeMode invalid value", pv("foo", "storageClassName: test-storage-class\n"
            + "volumeMode: fake"), "spec.volumeMode"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("enumCases")
  void testValidatePersistentVolumes_unknownEnumValues_areRefusedOnTheirField(String name, String yaml,
      String field) {
    assertThat(refusedFields(yaml)).as(name).contains(field);
  }

  @Test
  void hostPath_type_isReadAndChecked() {
    PersistentVolume pv = (PersistentVolume) KubernetesYaml.parse(pv("foo", ""), "pv.yaml").objects().get(0);

    assertThat(pv.spec().source()).isEqualTo(new PersistentVolumeSource.HostPath("/foo", "Directory"));
    assertThat(refusedFields(pv("foo", "").replace("type: Directory", "type: Folder")))
        .containsExactly("spec.hostPath.type");
  }

  @Test
  void downwardApi_divisor_isReadAndChecked() {
    String pod = """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec:
          containers: [{name: app, image: nginx}]
          volumes:
          - name: podinfo
            downwardAPI:
              items:
              - path: mem
                resourceFieldRef: {containerName: app, resource: limits.memory, divisor: DIVISOR}
        """;
    Pod ok = (Pod) KubernetesYaml.parse(pod.replace("DIVISOR", "1Mi"), "p.yaml").objects().get(0);

    DownwardAPIVolumeFile file = ((VolumeSource.DownwardAPI) ok.spec().volumes().get(0).source()).items().get(0);
    assertThat(file.resourceFieldRef().divisor()).hasToString("1Mi");
    ManifestException e = catchThrowableOfType(ManifestException.class,
        () -> KubernetesYaml.parse(pod.replace("DIVISOR", "1m"), "p.yaml"));
    assertThat(e.problems()).extracting(p -> p.violation().field(), p -> p.violation().value()).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.volumes[0].downwardAPI.resourceFieldRef.divisor", "limits.memory"));
  }
}
