package io.fleetkit.api.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Projected and downward API volumes in the pod model: the names of the ConfigMaps and Secrets they read (as
 * upstream's {@code VisitPodSecretNames}/{@code VisitPodConfigmapNames} in {@code pkg/api/v1/pod/util.go} visit
 * them) and the rules of upstream's {@code validateProjectedVolumeSource}, {@code validateDownwardAPIVolumeSource}
 * and {@code validateDownwardAPIVolumeFile} ({@code pkg/apis/core/validation/validation.go}), with its messages.
 */
final class ProjectedVolumeTest {
  private static final VolumeProjection TOKEN = new VolumeProjection.ServiceAccountToken("", 3607L, "token");
  private static final VolumeProjection CA = new VolumeProjection.ConfigMap("kube-root-ca.crt",
      List.of(new KeyToPath("ca.crt", "ca.crt", null)), false);
  private static final VolumeProjection NAMESPACE = new VolumeProjection.DownwardAPI(List.of(
      new DownwardAPIVolumeFile("namespace", new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null,
          null)));

  private static Pod pod(VolumeSource source) {
    return Pod.builder().namespace("default").name("web").container("app", "nginx", ResourceList.EMPTY)
        .volume(new Volume("files", source)).build();
  }

  private static List<String> refused(VolumeSource source) {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> pod(source));
    assertThat(e).as("refused: %s", source).isNotNull();
    assertThat(e.violations()).allSatisfy(v -> assertThat(v.object()).isEqualTo("Pod default/web"));
    return e.violations().stream().map(v -> v.field() + " " + v.rule() + (v.value() == null ? "" : " " + v.value()))
        .toList();
  }

  @Test
  void serviceAccountVolume_asEveryPodGetsIt_isAcceptedAndNamesItsConfigMap() {
    VolumeSource.Projected p = new VolumeSource.Projected(List.of(TOKEN, CA, NAMESPACE), 420);
    Pod pod = pod(p);

    assertThat(pod.spec().volumes().get(0).source()).isEqualTo(p);
    assertThat(p.configMapNames()).containsExactly("kube-root-ca.crt");
    assertThat(p.secretNames()).isEmpty();
    assertThat(p.hasServiceAccountToken()).isTrue();
  }

  @Test
  void secretNames_areThoseOfSecretVolumesAndProjectedSecrets() {
    VolumeSource.Projected p = new VolumeSource.Projected(List.of(
        new VolumeProjection.Secret("tls", List.of(), false), CA,
        new VolumeProjection.Secret("creds", List.of(new KeyToPath("user", "creds/user", 0400)), true)), null);

    assertThat(p.secretNames()).containsExactly("tls", "creds");
    assertThat(p.hasServiceAccountToken()).isFalse();
    assertThat(new VolumeSource.Secret("s").secretNames()).containsExactly("s");
    assertThat(new VolumeSource.ConfigMap("c").configMapNames()).containsExactly("c");
    assertThat(new VolumeSource.ConfigMap("c").secretNames()).isEmpty();
    assertThat(VolumeSource.EmptyDir.DEFAULT.configMapNames()).isEmpty();
  }

  static Stream<Arguments> badProjections() {
    String at = "spec.volumes[0].projected";
    return Stream.of(
        Arguments.of(new VolumeSource.Projected(List.of(TOKEN), 01000),
            List.of(at + ".defaultMode must be a number between 0 and 0777 (octal), both inclusive 512")),
        Arguments.of(new VolumeSource.Projected(List.of(TOKEN), -1),
            List.of(at + ".defaultMode must be a number between 0 and 0777 (octal), both inclusive -1")),
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.ConfigMap("", List.of(), false)), null),
            List.of(at + ".sources[0].configMap.name Required value")),
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.Secret("", List.of(), false)), null),
            List.of(at + ".sources[0].secret.name Required value")),
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.ConfigMap("c",
            List.of(new KeyToPath("", "/etc/x", 01000)), false)), null), List.of(
                at + ".sources[0].configMap.items[0].key Required value",
                at + ".sources[0].configMap.items[0].path must be a relative path /etc/x",
                at + ".sources[0].configMap.items[0].mode must be a number between 0 and 0777 (octal), both"
                    + " inclusive 512")),
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.Secret("s",
            List.of(new KeyToPath("k", "a/../b", null), new KeyToPath("l", "..c", null)), false)), null), List.of(
                at + ".sources[0].secret.items[0].path must not contain '..' a/../b",
                at + ".sources[0].secret.items[1].path must not start with '..' ..c")),
        Arguments.of(new VolumeSource.Projected(List.of(CA, new VolumeProjection.Secret("s",
            List.of(new KeyToPath("k", "ca.crt", null)), false)), null),
            List.of(at + " conflicting duplicate paths s")), // upstream: on the volume, with the source's name
        Arguments.of(new VolumeSource.Projected(List.of(NAMESPACE, new VolumeProjection.ConfigMap("c",
            List.of(new KeyToPath("k", "namespace", null)), false)), null),
            List.of(at + " conflicting duplicate paths c")),
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.ServiceAccountToken("", 599L, "")),
            null), List.of(
                at + ".sources[0].serviceAccountToken.expirationSeconds may not specify a duration less than 10"
                    + " minutes 599",
                at + ".path Required value")), // upstream's field for the token's path
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.ServiceAccountToken("vault",
            (1L << 32) + 1, "t")), null), List.of(at + ".sources[0].serviceAccountToken.expirationSeconds may not"
                + " specify a duration larger than 2^32 seconds 4294967297")),
        Arguments.of(new VolumeSource.Projected(List.of(new VolumeProjection.DownwardAPI(List.of(
            new DownwardAPIVolumeFile("host", new DownwardAPIVolumeFile.FieldRef("v1", "spec.nodeName"), null,
                null)))), null), List.of(at + ".sources[0].downwardAPI.fieldRef.fieldPath Unsupported value:"
                    + " supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\","
                    + " \"metadata.namespace\", \"metadata.uid\" spec.nodeName")));
  }

  @ParameterizedTest
  @MethodSource("badProjections")
  void projected_breakingARule_isRefusedNamingTheField(VolumeSource source, List<String> expected) {
    assertThat(refused(source)).containsExactlyElementsOf(expected);
  }

  static Stream<Arguments> badDownwardFiles() {
    String at = "spec.volumes[0].downwardAPI"; // upstream names the volume, not the item
    DownwardAPIVolumeFile.FieldRef name = new DownwardAPIVolumeFile.FieldRef("v1", "metadata.name");
    DownwardAPIVolumeFile.ResourceFieldRef cpu = new DownwardAPIVolumeFile.ResourceFieldRef("app", "limits.cpu",
        null);
    return Stream.of(
        Arguments.of(new DownwardAPIVolumeFile("", name, null, null), List.of(at + ".path Required value")),
        Arguments.of(new DownwardAPIVolumeFile("n", null, null, null),
            List.of(at + " Required value: one of fieldRef and resourceFieldRef is required")),
        Arguments.of(new DownwardAPIVolumeFile("n", name, cpu, null),
            List.of(at + " fieldRef and resourceFieldRef can not be specified simultaneously resource")),
        Arguments.of(new DownwardAPIVolumeFile("n", new DownwardAPIVolumeFile.FieldRef("v1", "metadata.labels['a']"),
            null, 0777 + 1), List.of(at + ".mode must be a number between 0 and 0777 (octal), both inclusive 512")),
        Arguments.of(new DownwardAPIVolumeFile("n", new DownwardAPIVolumeFile.FieldRef("v1", "status.podIP['a']"),
            null, null), List.of(at + ".fieldRef.fieldPath error converting fieldPath: field label does not support"
                + " subscript: status.podIP['a'] status.podIP['a']")),
        Arguments.of(new DownwardAPIVolumeFile("n", null, new DownwardAPIVolumeFile.ResourceFieldRef("",
            "limits.gpu", null), null), List.of(at + ".resourceFieldRef.containerName Required value")),
        Arguments.of(new DownwardAPIVolumeFile("n", null, new DownwardAPIVolumeFile.ResourceFieldRef("app",
            "limits.gpu", null), null), List.of(
                at + ".resourceFieldRef.resource Unsupported value: supported values: \"limits.cpu\","
                    + " \"limits.ephemeral-storage\", \"limits.memory\", \"requests.cpu\","
                    + " \"requests.ephemeral-storage\", \"requests.memory\" limits.gpu")));
  }

  @ParameterizedTest
  @MethodSource("badDownwardFiles")
  void downwardAPI_fileBreakingARule_isRefusedNamingTheField(DownwardAPIVolumeFile file, List<String> expected) {
    assertThat(refused(new VolumeSource.DownwardAPI(List.of(file), null))).containsExactlyElementsOf(expected);
  }

  @Test
  void downwardAPI_validFiles_areAccepted() {
    VolumeSource.DownwardAPI d = new VolumeSource.DownwardAPI(List.of(
        new DownwardAPIVolumeFile("labels", new DownwardAPIVolumeFile.FieldRef("", "metadata.labels"), null, 0644),
        new DownwardAPIVolumeFile("app", new DownwardAPIVolumeFile.FieldRef("v1", "metadata.labels['app']"), null,
            null),
        new DownwardAPIVolumeFile("mem", null, new DownwardAPIVolumeFile.ResourceFieldRef("app", "requests.memory",
            Quantity.parse("1Mi")), null),
        new DownwardAPIVolumeFile("huge", null, new DownwardAPIVolumeFile.ResourceFieldRef("app",
            "limits.hugepages-2Mi", null), null)), 0400);

    assertThat(pod(d).spec().volumes().get(0).source()).isEqualTo(d);
    assertThat(d.secretNames()).isEmpty();
  }

  @Test
  void violations_areReportedTogether() {
    List<Violation> v = catchThrowableOfType(ValidationException.class, () -> pod(new VolumeSource.Projected(
        List.of(new VolumeProjection.Secret("", List.of(), false), new VolumeProjection.ConfigMap("", List.of(),
            false)), null))).violations();
    assertThat(v).extracting(Violation::field).containsExactly("spec.volumes[0].projected.sources[0].secret.name",
        "spec.volumes[0].projected.sources[1].configMap.name");
  }
}
