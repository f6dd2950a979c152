package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The cases of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidateVolumes} that only a manifest can express, since FleetKit's volume source and projection are
 * one-of records: "more than one source", "no volume source" and the two "ProjectedVolumeSource more than one
 * projection in a source" cases, with upstream's field, error type and count. The core-api test
 * {@code VolumeValidationUpstreamTest} runs the table's other cases. Also: the fields of secret, configMap and
 * hostPath volumes read and written back.
 *
 * <p>And {@code TestValidateEphemeralVolume} ({@code testValidatePVC} with {@code ephemeral}: the claim of each
 * scenario as a generic ephemeral volume's template), which only says whether the volume is refused; the template
 * goes through the loader because several of its fields (the forbidden metadata, unknown enum values) cannot be
 * held by FleetKit's records.
 */
final class VolumeValidationUpstreamYamlTest {

  private static String pod(String volumes) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: web, namespace: default}
        spec:
          containers: [{name: app, image: nginx}]
          volumes:
        """ + volumes.indent(2);
  }

  private static List<String> refused(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "p.yaml"));
    assertThat(e).as("refused").isNotNull();
    return e.problems().stream().map(p -> p.violation().field() + ": " + p.violation().rule()).toList();
  }

  private static final String GOOD_SPEC = """
      accessModes: [ReadWriteOnce, ReadOnlyMany]
      selector: {matchExpressions: [{key: key2, operator: Exists}]}
      resources: {requests: {storage: 10G}}
      storageClassName: valid
      volumeMode: Filesystem
      """;

  private static Arguments ephemeral(String name, boolean failure, String metadata, String spec) {
    return Arguments.of(name, failure, metadata, spec);
  }

  private static Arguments ephemeralMeta(String name, boolean failure, String metadata) {
    return ephemeral(name, failure, metadata, GOOD_SPEC);
  }

  private static Arguments ephemeralSpec(String name, String spec) {
    return ephemeral(name, true, "", spec);
  }

  static Stream<Arguments> testValidateEphemeralVolume() {
    return Stream.of(
        ephemeralMeta("good-claim", false, ""),
        ephemeralMeta("missing-name", false, "name: \"\""),
        ephemeralMeta("missing-namespace", false, "namespace: \"\""),
        ephemeralMeta("with-generate-name", true, "generateName: pvc-"),
        ephemeralMeta("with-uid", true, "uid: ac051fac-2ead-46d9-b8b4-4e0fbeb7455d"),
        ephemeralMeta("with-resource-version", true, "resourceVersion: \"1\""),
        ephemeralMeta("with-generation", true, "generation: 100"),
        ephemeralMeta("with-creation-timestamp", true, "creationTimestamp: \"2024-05-01T10:00:00Z\""),
        ephemeralMeta("with-deletion-grace-period-seconds", true, "deletionGracePeriodSeconds: 10"),
        ephemeralMeta("with-owner-references", true, "ownerReferences: [{apiVersion: v1, kind: pod, name: foo,"
            + " uid: ac051fac-2ead-46d9-b8b4-4e0fbeb7455d}]"),
        ephemeralMeta("with-finalizers", true, "finalizers: [example.com/foo]"),
        ephemeralMeta("with-managed-fields", true, "managedFields: [{fieldsType: FieldsV1, operation: Apply,"
            + " apiVersion: apps/v1, manager: foo}]"),
        ephemeralMeta("with-good-labels", false, "labels: {apps.kubernetes.io/name: test}"),
        ephemeralMeta("with-bad-labels", true, "labels: {hello-world: hyphen not allowed}"),
        ephemeralMeta("with-good-annotations", false, "labels: {foo: bar}"), // upstream sets labels here too
        ephemeralMeta("with-bad-annotations", true, "labels: {hello-world: hyphen not allowed}"),
        ephemeral("with-read-write-once-pod", false, "", """
            accessModes: [ReadWriteOncePod]
            resources: {requests: {storage: 10G}}
            """),
        ephemeralSpec("with-read-write-once-pod-and-others", """
            accessModes: [ReadWriteOncePod, ReadWriteMany]
            resources: {requests: {storage: 10G}}
            """),
        ephemeralSpec("invalid-claim-zero-capacity", """
            selector: {matchExpressions: [{key: key2, operator: Exists}]}
            accessModes: [ReadWriteOnce, ReadOnlyMany]
            resources: {requests: {storage: 0G}}
            storageClassName: valid
            """),
        ephemeralSpec("invalid-label-selector", """
            selector: {matchExpressions: [{key: key2, operator: InvalidOp, values: [value1, value2]}]}
            accessModes: [ReadWriteOnce, ReadOnlyMany]
            resources: {requests: {storage: 10G}}
            """),
        ephemeralSpec("invalid-accessmode", """
            accessModes: [fakemode]
            resources: {requests: {storage: 10G}}
            """),
        ephemeralSpec("no-access-modes", """
            resources: {requests: {storage: 10G}}
            """),
        ephemeralSpec("no-resource-requests", """
            accessModes: [ReadWriteOnce]
            """),
        ephemeralSpec("invalid-resource-requests", """
            accessModes: [ReadWriteOnce]
            resources: {requests: {memory: 10G}}
            """),
        ephemeralSpec("negative-storage-request", """
            selector: {matchExpressions: [{key: key2, operator: Exists}]}
            accessModes: [ReadWriteOnce, ReadOnlyMany]
            resources: {requests: {storage: -10G}}
            """),
        ephemeralSpec("zero-storage-request", """
            selector: {matchExpressions: [{key: key2, operator: Exists}]}
            accessModes: [ReadWriteOnce, ReadOnlyMany]
            resources: {requests: {storage: 0G}}
            """),
        ephemeralSpec("invalid-storage-class-name", """
            selector: {matchExpressions: [{key: key2, operator: Exists}]}
            accessModes: [ReadWriteOnce, ReadOnlyMany]
            resources: {requests: {storage: 10G}}
            storageClassName: -invalid-
            """),
        ephemeralSpec("invalid-volume-mode", """
            accessModes: [ReadWriteOnce, ReadOnlyMany]
            resources: {requests: {storage: 10G}}
            volumeMode: fakeVolumeMode
            """));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource
  void testValidateEphemeralVolume(String name, boolean failure, String metadata, String spec) {
    String yaml = pod("- name: foo\n  ephemeral:\n    volumeClaimTemplate:\n"
        + (metadata.isEmpty() ? "" : "      metadata:\n" + metadata.indent(8))
        + "      spec:\n" + spec.indent(8));
    if (failure) {
      assertThat(refused(yaml)).as(name).isNotEmpty()
          .allSatisfy(p -> assertThat(p).startsWith("spec.volumes[0].ephemeral.volumeClaimTemplate."));
    } else {
      Pod pod = (Pod) KubernetesYaml.parse(yaml, "p.yaml").objects().get(0);
      assertThat(pod.spec().volumes().get(0).ephemeral()).as(name).isNotNull();
    }
  }

  @Test
  void moreThanOneSource_isForbiddenOnTheSecondInUpstreamsOrder() {
    // upstream checks emptyDir before hostPath, so hostPath is the one refused
    assertThat(refused(pod("""
        - name: dups
          emptyDir: {}
          hostPath: {path: /mnt/path, type: Directory}
        """))).containsExactly("spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type");
  }

  @Test
  void noVolumeSource_isRequired() {
    assertThat(refused(pod("""
        - name: volume
        """))).singleElement().asString()
        .startsWith("spec.volumes[0]: Required value: must specify a volume type");
  }

  @Test
  void projectedMoreThanOneProjectionInASource_isForbiddenOnThatSource() {
    assertThat(refused(pod("""
        - name: projected-volume
          projected:
            sources:
            - secret: {name: foo}
            - secret: {name: foo}
              downwardAPI: {}
        """))).containsExactly(
            "spec.volumes[0].projected.sources[1]: Forbidden: may not specify more than 1 volume type per source");
  }

  @Test
  void projectedMoreThanOneProjectionInASource_alsoReportsTheMissingSecretNames() {
    assertThat(refused(pod("""
        - name: projected-volume
          projected:
            sources:
            - secret: {}
            - secret: {}
              downwardAPI: {}
        """))).containsExactlyInAnyOrder(
            "spec.volumes[0].projected.sources[0].secret.name: Required value",
            "spec.volumes[0].projected.sources[1].secret.name: Required value",
            "spec.volumes[0].projected.sources[1]: Forbidden: may not specify more than 1 volume type per source");
  }

  @Test
  void secretConfigMapAndHostPathFields_areReadAndWrittenBack() {
    LoadedObjects first = KubernetesYaml.parse(pod("""
        - name: creds
          secret:
            secretName: creds
            defaultMode: 0400
            optional: true
            items: [{key: user, path: creds/user, mode: 0440}]
        - name: conf
          configMap:
            name: app
            items: [{key: app.yaml, path: app.yaml}]
        - name: sock
          hostPath: {path: /run/containerd/containerd.sock, type: Socket}
        """), "p.yaml");
    Pod pod = (Pod) first.objects().get(0);

    assertThat(pod.spec().volumes()).containsExactly(
        new Volume("creds", new VolumeSource.Secret("creds", List.of(new KeyToPath("user", "creds/user", 0440)),
            0400, true)),
        new Volume("conf", new VolumeSource.ConfigMap("app", List.of(new KeyToPath("app.yaml", "app.yaml", null)),
            null, false)),
        new Volume("sock", new VolumeSource.HostPath("/run/containerd/containerd.sock", "Socket")));
    assertThat(KubernetesYaml.parse(KubernetesYaml.dump(first.objects()), "dumped").objects())
        .isEqualTo(first.objects());
  }

  @Test
  void secretItemBreakingARule_isRefusedNamingTheItem() {
    assertThat(refused(pod("""
        - name: creds
          secret:
            secretName: creds
            defaultMode: 01000
            items: [{key: user, path: ../user}]
        - name: sock
          hostPath: {path: /run/x.sock, type: Pipe}
        """))).containsExactly(
            "spec.volumes[0].secret.defaultMode: must be a number between 0 and 0777 (octal), both inclusive",
            "spec.volumes[0].secret.items[0].path: must not contain '..'",
            "spec.volumes[1].hostPath.type: Unsupported value: supported values: \"\", \"BlockDevice\","
                + " \"CharDevice\", \"Directory\", \"DirectoryOrCreate\", \"File\", \"FileOrCreate\", \"Socket\"");
  }
}
