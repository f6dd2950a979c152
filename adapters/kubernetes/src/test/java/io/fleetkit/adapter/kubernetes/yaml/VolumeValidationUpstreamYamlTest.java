package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cases of kubernetes {@code pkg/apis/core/validation/validation_test.go} (commit 000f26050b9b)
 * {@code TestValidateVolumes} that only a manifest can express, since FleetKit's volume source and projection are
 * one-of records: "more than one source", "no volume source" and the two "ProjectedVolumeSource more than one
 * projection in a source" cases, with upstream's field, error type and count. The core-api test
 * {@code VolumeValidationUpstreamTest} runs the table's other cases. Also: the fields of secret, configMap and
 * hostPath volumes read and written back.
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
