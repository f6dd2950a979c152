package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.core.PersistentVolumeAccessMode;
import io.fleetkit.api.core.PersistentVolumeClaimSpec;
import io.fleetkit.api.core.PersistentVolumeClaimTemplate;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Generic ephemeral volumes ({@code volumes[].ephemeral.volumeClaimTemplate}) through the YAML loader: both ways,
 * and upstream's rules (one source per volume, only labels and annotations in the template's metadata, the template
 * required, its spec checked as a claim's).
 */
final class EphemeralVolumeYamlTest {
  private static String pod(String volume) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: web-0, namespace: shop}
        spec:
          containers: [{name: app, image: shop:1}]
          volumes:
        """ + volume.indent(4);
  }

  private static final String EPHEMERAL = """
      - name: scratch
        ephemeral:
          volumeClaimTemplate:
            metadata:
              labels: {app: web}
              annotations: {example.com/note: tmp}
            spec:
              accessModes: [ReadWriteOnce]
              storageClassName: fast
              resources: {requests: {storage: 1Gi}}
      """;

  private static ManifestException parseFails(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "p.yaml"));
    assertThat(e).as("parsing must fail").isNotNull();
    return e;
  }

  @Test
  void parse_ephemeralVolume_readsTheTemplate() {
    Pod pod = (Pod) KubernetesYaml.parse(pod(EPHEMERAL), "p.yaml").objects().get(0);
    assertThat(pod.spec().volumes()).containsExactly(Volume.ephemeral("scratch", new PersistentVolumeClaimTemplate(
        Map.of("app", "web"), Map.of("example.com/note", "tmp"), PersistentVolumeClaimSpec.builder()
            .accessMode(PersistentVolumeAccessMode.ReadWriteOnce).storageClassName("fast").storage("1Gi").build())));
  }

  @Test
  void dumpThenParse_isIdentity() {
    LoadedObjects first = KubernetesYaml.parse(pod(EPHEMERAL), "p.yaml");
    String yaml = KubernetesYaml.dump(first.objects());
    assertThat(yaml).contains("ephemeral:").contains("volumeClaimTemplate:").contains("storage: \"1Gi\"");
    assertThat(KubernetesYaml.parse(yaml, "dumped").objects()).isEqualTo(first.objects());
  }

  @Test
  void parse_twoSources_refusedOnTheSecond() {
    ManifestException e = parseFails(pod("""
        - name: scratch
          persistentVolumeClaim: {claimName: data}
          ephemeral:
            volumeClaimTemplate:
              spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
        """));
    assertThat(e.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule())
        .containsExactly("spec.volumes[0].ephemeral: Forbidden: may not specify more than 1 volume type");
  }

  @Test
  void parse_templateMetadataName_cannotBeSet() {
    ManifestException e = parseFails(pod("""
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              metadata: {name: mine, namespace: other, labels: {app: web}}
              spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}
        """));
    assertThat(e.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule()).containsExactly(
        "spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.name: Forbidden: cannot be set",
        "spec.volumes[0].ephemeral.volumeClaimTemplate.metadata.namespace: Forbidden: cannot be set");
  }

  @Test
  void parse_noTemplate_required() {
    ManifestException e = parseFails(pod("""
        - name: scratch
          ephemeral: {}
        """));
    assertThat(e.problems()).extracting(p -> p.violation().field() + ": " + p.violation().rule())
        .containsExactly("spec.volumes[0].ephemeral.volumeClaimTemplate: Required value");
  }

  @Test
  void parse_templateWithoutStorage_refusedByThePodsRules() {
    ManifestException e = parseFails(pod("""
        - name: scratch
          ephemeral:
            volumeClaimTemplate:
              spec: {accessModes: [ReadWriteOnce]}
        """));
    assertThat(e.problems()).extracting(p -> p.violation().field())
        .containsExactly("spec.volumes[0].ephemeral.volumeClaimTemplate.spec.resources.requests.storage");
  }
}
