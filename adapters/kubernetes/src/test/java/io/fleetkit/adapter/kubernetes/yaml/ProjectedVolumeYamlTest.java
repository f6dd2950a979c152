package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeMount;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Projected and downward API volumes and the containers' volume mounts read and written back; volume sources FleetKit
 * does not model (nfs, csi...) left out with a warning, and the mounts of them with them.
 */
final class ProjectedVolumeYamlTest {
  /** The service account volume the API server adds to every pod, as kubectl prints it. */
  private static final String POD = """
      apiVersion: v1
      kind: Pod
      metadata: {name: web-0, namespace: default}
      spec:
        containers:
        - name: nginx
          image: nginx:1.25
          volumeMounts:
          - mountPath: /var/run/secrets/kubernetes.io/serviceaccount
            name: kube-api-access-xyz12
            readOnly: true
        volumes:
        - name: kube-api-access-xyz12
          projected:
            defaultMode: 420
            sources:
            - serviceAccountToken:
                expirationSeconds: 3607
                path: token
            - configMap:
                items:
                - key: ca.crt
                  path: ca.crt
                name: kube-root-ca.crt
            - downwardAPI:
                items:
                - fieldRef:
                    apiVersion: v1
                    fieldPath: metadata.namespace
                  path: namespace
      """;

  private static ManifestException refused(String yaml) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse(yaml, "p.yaml"));
    assertThat(e).as("refused").isNotNull();
    return e;
  }

  @Test
  void parse_serviceAccountVolume_isModelled() {
    LoadedObjects loaded = KubernetesYaml.parse(POD, "pod.yaml");
    Volume v = loaded.ofType(Pod.class).get(0).spec().volumes().get(0);

    assertThat(v.source()).isEqualTo(new VolumeSource.Projected(List.of(
        new VolumeProjection.ServiceAccountToken("", 3607L, "token"),
        new VolumeProjection.ConfigMap("kube-root-ca.crt", List.of(new KeyToPath("ca.crt", "ca.crt", null)), false),
        new VolumeProjection.DownwardAPI(List.of(new DownwardAPIVolumeFile("namespace",
            new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null, null)))), 420));
    assertThat(v.source().configMapNames()).containsExactly("kube-root-ca.crt");
    assertThat(loaded.ofType(Pod.class).get(0).spec().containers().get(0).volumeMounts()).containsExactly(
        new VolumeMount("kube-api-access-xyz12", true, "/var/run/secrets/kubernetes.io/serviceaccount", ""));
    assertThat(loaded.warnings()).isEmpty();
  }

  @Test
  void dump_projectedAndDownwardAPIVolumes_roundTrip() {
    String yaml = POD + """
          - name: info
            downwardAPI:
              defaultMode: 292
              items:
              - path: labels
                fieldRef: {fieldPath: metadata.labels}
              - path: mem
                mode: 256
                resourceFieldRef: {containerName: nginx, resource: limits.memory, divisor: 1Mi}
          - name: certs
            projected:
              sources:
              - secret:
                  name: tls
                  optional: true
                  items: [{key: tls.crt, path: certs/tls.crt, mode: 256}]
              - serviceAccountToken: {audience: vault, path: vault-token}
        """;
    LoadedObjects loaded = KubernetesYaml.parse(yaml, "pod.yaml");
    String dumped = KubernetesYaml.dump(loaded.objects());
    LoadedObjects again = KubernetesYaml.parse(dumped, "again.yaml");

    assertThat(again.objects()).isEqualTo(loaded.objects());
    List<Volume> volumes = again.ofType(Pod.class).get(0).spec().volumes();
    assertThat(volumes).hasSize(3);
    assertThat(volumes.get(2).source().secretNames()).containsExactly("tls");
    assertThat(((VolumeSource.DownwardAPI) volumes.get(1).source()).defaultMode()).isEqualTo(292);
    assertThat(again.warnings()).isEmpty();
    assertThat(loaded.warnings()).isEmpty();
  }

  @Test
  void parse_volumeSourceNotModelled_isLeftOutWithAWarningAtItsLine() {
    LoadedObjects loaded = KubernetesYaml.parse("""
        apiVersion: apps/v1
        kind: Deployment
        metadata: {name: web}
        spec:
          selector: {matchLabels: {app: web}}
          template:
            metadata: {labels: {app: web}}
            spec:
              containers:
              - name: c
                image: nginx
                volumeMounts: [{name: shared, mountPath: /shared}, {name: data, mountPath: /data}]
              volumes:
              - name: shared
                nfs: {server: nfs.example.com, path: /exports}
              - name: scratch
                emptyDir: {}
              - name: data
                csi:
                  driver: ebs.csi.aws.com
                  volumeAttributes: {size: 1Gi}
              - name: conf
                configMap: {name: web-conf}
        """, "dep.yaml");

    assertThat(loaded.ofType(Deployment.class).get(0).spec().template().spec().volumes())
        .extracting(Volume::name).containsExactly("scratch", "conf");
    assertThat(loaded.warnings()).extracting(ManifestProblem::toString).containsExactly(
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.containers[0].volumeMounts[0].name"
            + " not modelled by FleetKit; ignored (at line 12)",
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.containers[0].volumeMounts[1].name"
            + " not modelled by FleetKit; ignored (at line 12)",
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.volumes[0].nfs not modelled by"
            + " FleetKit; ignored (at line 15)",
        "dep.yaml: document 1 (line 1): Deployment default/web: spec.template.spec.volumes[2].csi not modelled by"
            + " FleetKit; ignored (at line 19)");
    // the mounts of modelled volumes are kept: one left out, one kept
    LoadedObjects mixed = KubernetesYaml.parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers:
          - name: c
            image: nginx
            volumeMounts: [{name: shared, mountPath: /shared}, {name: scratch, mountPath: /tmp, readOnly: false}]
          volumes:
          - {name: shared, nfs: {server: nfs.example.com, path: /exports}}
          - {name: scratch, emptyDir: {}}
        """, "pod.yaml");
    assertThat(mixed.ofType(Pod.class).get(0).spec().containers().get(0).volumeMounts())
        .containsExactly(VolumeMount.of("scratch", "/tmp", false));
    assertThat(mixed.warnings()).extracting(w -> w.violation().field()).containsExactly(
        "spec.containers[0].volumeMounts[0].name", "spec.volumes[0].nfs");
  }

  @Test
  void parse_mountOfNoVolume_isRefusedNamingTheFieldAndLine() {
    ManifestException e = refused("""
        apiVersion: v1
        kind: Pod
        metadata: {name: web}
        spec:
          containers:
          - name: c
            image: nginx
            volumeMounts:
            - {name: nope, mountPath: /data}
            - {name: scratch, mountPath: /data}
          volumes: [{name: scratch, emptyDir: {}}]
        """);
    assertThat(e.getMessage()).contains("spec.containers[0].volumeMounts[0].name \"nope\" Not found")
        .contains("spec.containers[0].volumeMounts[1].mountPath \"/data\" must be unique");
  }

  /** A pod with one projected volume of the given sources (YAML list items, indented by two). */
  private static String projected(String sources) {
    return """
        apiVersion: v1
        kind: Pod
        metadata: {name: web-0}
        spec:
          containers: [{name: nginx, image: nginx}]
          volumes:
          - name: files
            projected:
              sources:
        """ + sources.indent(6);
  }

  @Test
  void parse_projectionSourceNotModelled_isLeftOutWithAWarning() {
    LoadedObjects loaded = KubernetesYaml.parse(projected("""
        - clusterTrustBundle: {name: "example.com:roots", path: roots.pem}
        - configMap: {name: kube-root-ca.crt}
        """), "pod.yaml");
    VolumeSource.Projected p = (VolumeSource.Projected) loaded.ofType(Pod.class).get(0).spec().volumes().get(0)
        .source();

    assertThat(p.sources()).hasSize(1);
    assertThat(p.configMapNames()).containsExactly("kube-root-ca.crt");
    assertThat(loaded.warnings()).extracting(w -> w.violation().field() + " @" + w.line()).containsExactly(
        "spec.volumes[0].projected.sources[0].clusterTrustBundle @10");
  }

  @Test
  void parse_projectionWithTwoSources_isRefused() {
    ManifestException e = refused(projected("""
        - serviceAccountToken: {path: token}
          configMap: {name: other}
        """));

    assertThat(e.getMessage()).isEqualTo("p.yaml: document 1 (line 1): Pod default/web-0:"
        + " spec.volumes[0].projected.sources[0] Forbidden: may not specify more than 1 volume type per source"
        + " (at line 10)");
  }

  @Test
  void parse_projectionBreakingUpstreamsRules_isRefusedAtTheFieldsLine() {
    ManifestException e = refused(projected("""
        - configMap:
            name: a
            items: [{key: k, path: ../ca.crt}]
        - secret:
            name: b
            items:
            - {key: k, path: ns}
        - downwardAPI:
            items:
            - path: ns
              fieldRef: {fieldPath: spec.nodeName}
        - serviceAccountToken: {path: token, expirationSeconds: 60}
        """));

    assertThat(e.problems()).extracting(p -> p.violation().field() + " " + p.violation().rule() + " @" + p.line())
        .containsExactly(
            // upstream reports "../x" once, a downward API file's errors on its projection (no item index, so
            // the projection's line) and a duplicate path on the volume
            "spec.volumes[0].projected.sources[0].configMap.items[0].path must not contain '..' @12",
            "spec.volumes[0].projected.sources[2].downwardAPI.fieldRef.fieldPath Unsupported value:"
                + " supported values: \"metadata.annotations\", \"metadata.labels\", \"metadata.name\","
                + " \"metadata.namespace\", \"metadata.uid\" @17",
            "spec.volumes[0].projected conflicting duplicate paths @8",
            "spec.volumes[0].projected.sources[3].serviceAccountToken.expirationSeconds may not specify a duration"
                + " less than 10 minutes @21");
  }

  @Test
  void parse_volumeWithoutAnySource_staysAnError() {
    ManifestException e = refused("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p}
        spec:
          containers: [{name: c, image: x}]
          volumes: [{name: v}]
        """);

    assertThat(e.getMessage()).contains("spec.volumes[0] Required value: must specify a volume type (FleetKit reads"
        + " persistentVolumeClaim, emptyDir");
  }
}
