package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.DownwardAPIVolumeFile;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeProjection;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.ResourceList;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The projected volume's set-up, {@code collectData} of kubernetes {@code pkg/volume/projected/projected.go}, with
 * the table cases of {@code pkg/volume/projected/projected_test.go} as data: TestCollectDataWithSecret (9),
 * TestCollectDataWithConfigMap (9), TestCollectDataWithDownwardAPI (6), TestCollectDataWithServiceAccountToken (7 of
 * 8), and TestInvalidPathProjected. FleetKit's kubelet decides whether a volume can be set up, not the files it
 * writes: each case asserts upstream's success or failure (a failure with its message), not its payload (paths,
 * contents, modes). Four cases make a pod the API server refuses (a downward API key {@code ''}, tokens of a minute):
 * FleetKit refuses it when it is made, which is asserted instead. Not ported: TestCollectDataWithServiceAccountToken
 * "no default mode" (a stored pod always has its projected {@code defaultMode}: the API server defaults it, FleetKit
 * reads a missing one as 0644) and TestCollectDataWithClusterTrustBundle (cluster trust bundle sources are not
 * modelled). Upstream's namespace {@code test_projected_namespace} and its object names (the case names) are not
 * valid names in FleetKit: here the namespace is {@code test-projected-namespace} and each object is named after its
 * case in lower case with dashes.
 */
final class ProjectedVolumeUpstreamTest {
  private static final String NS = "test-projected-namespace";
  private final Map<String, ConfigMap> maps = new HashMap<>();
  private final Map<String, Secret> secrets = new HashMap<>();
  private final ConfigReferences.Lookup lookup = new ConfigReferences.Lookup() {
    @Override
    public @Nullable ConfigMap configMap(String namespace, String name) {
      return maps.get(namespace + "/" + name);
    }

    @Override
    public @Nullable Secret secret(String namespace, String name) {
      return secrets.get(namespace + "/" + name);
    }
  };

  private static Pod pod(VolumeProjection... sources) {
    return Pod.builder().namespace(NS).name("pod-name").label("key1", "value1").label("key2", "value2")
        .annotation("a1", "value1").annotation("a2", "value2").serviceAccountName("foo")
        .container("app", "busybox", ResourceList.EMPTY)
        .volume(new Volume("test-volume-name", new VolumeSource.Projected(List.of(sources), 0644))).build();
  }

  private List<String> failures(Pod pod) {
    return ConfigReferences.mountFailures(pod, lookup).stream().map(ConfigReferences.MountFailure::message).toList();
  }

  private static String objectName(String caseName) {
    return caseName.toLowerCase(java.util.Locale.ROOT).replace(' ', '-');
  }

  private static KeyToPath item(String key, String path, @Nullable Integer mode) {
    return new KeyToPath(key, path, mode);
  }

  /** The shared rows of TestCollectDataWithSecret and TestCollectDataWithConfigMap: items, optional, error. */
  static Stream<Arguments> keyedCases() {
    return Stream.of(
        Arguments.of("no overrides", List.of(), false, true),
        Arguments.of("basic 1", List.of(item("foo", "path/to/foo.txt", null)), false, true),
        Arguments.of("subdirs", List.of(item("foo", "path/to/1/2/3/foo.txt", null)), false, true),
        Arguments.of("subdirs 2", List.of(item("foo", "path/to/1/2/3/foo.txt", null)), false, true),
        Arguments.of("subdirs 3", List.of(item("foo", "path/to/1/2/3/foo.txt", null),
            item("bar", "another/path/to/the/esteemed/bar.bin", null)), false, true),
        Arguments.of("non existent key", List.of(item("zab", "path/to/foo.txt", null)), false, false),
        Arguments.of("mapping with Mode", List.of(item("foo", "foo.txt", 0400), item("bar", "bar.bin", 0400)), false,
            true),
        Arguments.of("mapping with defaultMode", List.of(item("foo", "foo.txt", null), item("bar", "bar.bin", null)),
            false, true),
        Arguments.of("optional non existent key", List.of(item("zab", "path/to/foo.txt", null)), true, true));
  }

  @ParameterizedTest(name = "TestCollectDataWithSecret {0}")
  @MethodSource("keyedCases")
  void collectData_secret_upstreamCase(String name, List<KeyToPath> items, boolean optional, boolean success) {
    String object = objectName(name);
    secrets.put(NS + "/" + object, Secret.of(NS, object, Map.of("foo", bytes("foo"), "bar", bytes("bar"))));

    List<String> got = failures(pod(new VolumeProjection.Secret(object, items, optional)));

    assertThat(got).isEqualTo(success ? List.of() : List.of("MountVolume.SetUp failed for volume \"test-volume-name\""
        + " : references non-existent secret key: zab"));
  }

  @ParameterizedTest(name = "TestCollectDataWithConfigMap {0}")
  @MethodSource("keyedCases")
  void collectData_configMap_upstreamCase(String name, List<KeyToPath> items, boolean optional, boolean success) {
    String object = objectName(name);
    maps.put(NS + "/" + object, ConfigMap.of(NS, object, Map.of("foo", "foo", "bar", "bar")));

    List<String> got = failures(pod(new VolumeProjection.ConfigMap(object, items, optional)));

    assertThat(got).isEqualTo(success ? List.of() : List.of("MountVolume.SetUp failed for volume \"test-volume-name\""
        + " : configmap references non-existent config key: zab"));
  }

  /** TestCollectDataWithDownwardAPI's cases that upstream sets up: the pod's fields always resolve. */
  @ParameterizedTest(name = "TestCollectDataWithDownwardAPI {0}")
  @MethodSource
  void collectData_downwardAPI_upstreamCase(String name, String path, String fieldPath) {
    DownwardAPIVolumeFile file = new DownwardAPIVolumeFile(path, new DownwardAPIVolumeFile.FieldRef("v1", fieldPath),
        null, null);

    assertThat(failures(pod(new VolumeProjection.DownwardAPI(List.of(file))))).as(name).isEmpty();
  }

  static Stream<Arguments> collectData_downwardAPI_upstreamCase() {
    return Stream.of(
        Arguments.of("annotation", "annotation", "metadata.annotations['a1']"),
        Arguments.of("labels", "labels", "metadata.labels"),
        Arguments.of("annotations", "annotations", "metadata.annotations"),
        Arguments.of("name", "name_file_name", "metadata.name"),
        Arguments.of("namespace", "namespace_file_name", "metadata.namespace"));
  }

  /**
   * TestCollectDataWithDownwardAPI "annotation-error": upstream's set-up fails on {@code metadata.annotations['']};
   * FleetKit refuses such a pod when it is made (the API server's validation), so no kubelet sees it.
   */
  @Test
  void collectData_downwardAPI_annotationError_isRefusedByValidation() {
    DownwardAPIVolumeFile file = new DownwardAPIVolumeFile("annotation",
        new DownwardAPIVolumeFile.FieldRef("v1", "metadata.annotations['']"), null, null);

    assertThatThrownBy(() -> pod(new VolumeProjection.DownwardAPI(List.of(file))))
        .isInstanceOf(ValidationException.class).hasMessageContaining("volumes[0].projected");
  }

  /**
   * TestCollectDataWithServiceAccountToken's cases without an expiration (audience and path as in the table; fsUser
   * and fsGroup change only the token file's mode and owner, which FleetKit does not write): a token source needs
   * nothing.
   */
  @ParameterizedTest(name = "TestCollectDataWithServiceAccountToken {0}")
  @MethodSource
  void collectData_serviceAccountToken_upstreamCase(String name, String audience, String path) {
    assertThat(failures(pod(new VolumeProjection.ServiceAccountToken(audience, null, path)))).as(name).isEmpty();
  }

  static Stream<Arguments> collectData_serviceAccountToken_upstreamCase() {
    return Stream.of(
        Arguments.of("good service account defaults expiration", "", "token"),
        Arguments.of("fsUser != nil", "", "token"),
        Arguments.of("fsGroup != nil", "", "token"),
        Arguments.of("fsUser != nil && fsGroup != nil", "", "token"));
  }

  /**
   * TestCollectDataWithServiceAccountToken's cases with {@code expirationSeconds: 60}: upstream's {@code collectData}
   * issues the token, as it validates nothing; the API server refuses such a pod (less than 10 minutes), and so does
   * FleetKit when the pod is made, so no kubelet sees it.
   */
  @ParameterizedTest(name = "TestCollectDataWithServiceAccountToken {0}")
  @MethodSource
  void collectData_serviceAccountTokenOfAMinute_isRefusedByValidation(String name, String audience, String path) {
    assertThatThrownBy(() -> pod(new VolumeProjection.ServiceAccountToken(audience, 60L, path))).as(name)
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining("serviceAccountToken.expirationSeconds \"60\" may not specify a duration less than 10"
            + " minutes");
  }

  static Stream<Arguments> collectData_serviceAccountTokenOfAMinute_isRefusedByValidation() {
    return Stream.of(
        Arguments.of("good service account", "https://example.com", "token"),
        Arguments.of("good service account other path", "https://example.com", "other-token"),
        Arguments.of("good service account defaults audience", "", "token"));
  }

  /** TestInvalidPathProjected: a secret source whose item names a key the secret lacks fails the set-up. */
  @Test
  void setUp_invalidPathProjected_fails() {
    secrets.put(NS + "/test-projected-name", Secret.of(NS, "test-projected-name", Map.of("data-1", bytes("value-1"))));

    assertThat(failures(pod(new VolumeProjection.Secret("test-projected-name", List.of(item("missing", "missing",
        null)), false)))).containsExactly("MountVolume.SetUp failed for volume \"test-volume-name\" : references "
            + "non-existent secret key: missing");
  }

  // FleetKit's own cases, from collectData's code

  @Test
  void mountFailures_kubeApiAccessWithoutRootCa_isTheConfigMapNotFound() {
    Pod p = pod(new VolumeProjection.ServiceAccountToken("", 3607L, "token"),
        new VolumeProjection.ConfigMap("kube-root-ca.crt", List.of(item("ca.crt", "ca.crt", null)), false),
        new VolumeProjection.DownwardAPI(List.of(new DownwardAPIVolumeFile("namespace",
            new DownwardAPIVolumeFile.FieldRef("v1", "metadata.namespace"), null, null))));

    assertThat(failures(p)).containsExactly(
        "MountVolume.SetUp failed for volume \"test-volume-name\" : configmap \"kube-root-ca.crt\" not found");
    maps.put(NS + "/kube-root-ca.crt", ConfigMap.of(NS, "kube-root-ca.crt", Map.of("ca.crt", "pem")));
    assertThat(failures(p)).isEmpty();
  }

  @Test
  void mountFailures_severalSourcesMissing_areOneAggregateInSourceOrder() {
    Pod p = pod(new VolumeProjection.Secret("db", List.of(), false),
        new VolumeProjection.ConfigMap("app", List.of(), false),
        new VolumeProjection.ConfigMap("app", List.of(), false),
        new VolumeProjection.ConfigMap("extra", List.of(), true));

    assertThat(failures(p)).containsExactly("MountVolume.SetUp failed for volume \"test-volume-name\" : "
        + "[secret \"db\" not found, configmap \"app\" not found]");
  }

  @Test
  void mountFailures_optionalMissingObjects_needNothing() {
    assertThat(failures(pod(new VolumeProjection.Secret("db", List.of(item("k", "db/k", null)), true),
        new VolumeProjection.ConfigMap("app", List.of(item("k", "app/k", null)), true)))).isEmpty();
  }

  @Test
  void hasConfigVolumes_projectedWithoutConfigMapOrSecret_hasNothingToWaitFor() {
    assertThat(ConfigReferences.hasConfigVolumes(pod(new VolumeProjection.ServiceAccountToken("", null, "token"))))
        .isFalse();
    assertThat(ConfigReferences.hasConfigVolumes(pod(new VolumeProjection.ConfigMap("app", List.of(), true))))
        .isTrue();
  }

  private static Bytes bytes(String s) {
    return Bytes.of(s.getBytes(StandardCharsets.UTF_8));
  }
}
