package io.fleetkit.reconcile.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvFromSource;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.EnvVarSource;
import io.fleetkit.api.core.KeyToPath;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Volume;
import io.fleetkit.api.core.VolumeSource;
import io.fleetkit.api.resource.ResourceList;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The kubelet's resolution of ConfigMap and Secret references: {@code makeEnvironmentVariables} in kubernetes
 * {@code pkg/kubelet/kubelet_pods.go} (its order, its optional rules and its messages) and the config map and secret
 * volume plugins' {@code SetUpAt} and {@code MakePayload} ({@code pkg/volume/configmap}, {@code pkg/volume/secret}),
 * with the operation executor's {@code MountVolume.SetUp failed for volume} message.
 */
final class ConfigReferencesTest {
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

  private void configMap(String name, Map<String, String> data) {
    maps.put("shop/" + name, ConfigMap.of("shop", name, data));
  }

  private void secret(String name, String key) {
    secrets.put("shop/" + name, Secret.of("shop", name, Map.of(key, Bytes.of("x".getBytes(StandardCharsets.UTF_8)))));
  }

  private static Container app(List<EnvVar> env, List<EnvFromSource> envFrom) {
    return Container.of("app", "shop:1", ResourceList.EMPTY).withEnv(env).withEnvFrom(envFrom);
  }

  private static Pod pod(Container c, Volume... volumes) {
    Pod.Builder b = Pod.builder().namespace("shop").name("web-0").container(c);
    for (Volume v : volumes) {
      b.volume(v);
    }
    return b.build();
  }

  private @Nullable String envError(List<EnvVar> env, List<EnvFromSource> envFrom) {
    Container c = app(env, envFrom);
    return ConfigReferences.envError(pod(c), c, lookup);
  }

  @Test
  void envError_literalsAndPodFields_needNothing() {
    assertThat(envError(List.of(new EnvVar("A", "1"), EnvVar.from("N", EnvVarSource.field("metadata.name")),
        EnvVar.from("M", EnvVarSource.resource("", "limits.memory", null))), List.of())).isNull();
  }

  @Test
  void envError_missingConfigMap_isNotFound() {
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("app-config", "level", false))),
        List.of())).isEqualTo("configmap \"app-config\" not found");
  }

  @Test
  void envError_missingKey_namesKeyNamespaceAndObject() {
    configMap("app-config", Map.of("other", "x"));
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("app-config", "level", false))),
        List.of())).isEqualTo("couldn't find key level in ConfigMap shop/app-config");
    secret("db", "user");
    assertThat(envError(List.of(EnvVar.from("P", EnvVarSource.secretKey("db", "password", false))), List.of()))
        .isEqualTo("couldn't find key password in Secret shop/db");
  }

  @Test
  void envError_missingSecret_isNotFound() {
    assertThat(envError(List.of(EnvVar.from("P", EnvVarSource.secretKey("db", "password", false))), List.of()))
        .isEqualTo("secret \"db\" not found");
    assertThat(envError(List.of(), List.of(EnvFromSource.secret("db", false)))).isEqualTo("secret \"db\" not found");
  }

  @Test
  void envError_optionalReferences_areLeftOut() {
    configMap("app-config", Map.of("other", "x"));
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("app-config", "level", true)),
        EnvVar.from("M", EnvVarSource.configMapKey("gone", "level", true)),
        EnvVar.from("P", EnvVarSource.secretKey("db", "password", true))),
        List.of(EnvFromSource.configMap("gone", true), EnvFromSource.secret("db", true)))).isNull();
  }

  /** envFrom is made first: its error comes before an env error, whatever the order of the fields in the manifest. */
  @Test
  void envError_envFromBeforeEnv_andFirstErrorWins() {
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("app-config", "level", false))),
        List.of(EnvFromSource.secret("db", false), EnvFromSource.configMap("other", false))))
        .isEqualTo("secret \"db\" not found");
  }

  /** An optional envFrom that missed does not excuse a non-optional key reference to the same map. */
  @Test
  void envError_optionalEnvFromThenRequiredKey_fails() {
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("app-config", "level", false))),
        List.of(EnvFromSource.configMap("app-config", true)))).isEqualTo("configmap \"app-config\" not found");
  }

  /** An environment variable reads a ConfigMap's {@code data} only: a {@code binaryData} key is not found. */
  @Test
  void envError_binaryDataKey_isNotFoundForAnEnvVar() {
    maps.put("shop/bin", new ConfigMap(io.fleetkit.api.meta.ObjectMeta.of("shop", "bin"), Map.of(),
        Map.of("level", Bytes.of(new byte[] {1})), false));
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("bin", "level", false))), List.of()))
        .isEqualTo("couldn't find key level in ConfigMap shop/bin");
  }

  @Test
  void envError_everythingPresent_isNull() {
    configMap("app-config", Map.of("level", "debug"));
    secret("db", "password");
    assertThat(envError(List.of(EnvVar.from("L", EnvVarSource.configMapKey("app-config", "level", false)),
        EnvVar.from("P", EnvVarSource.secretKey("db", "password", false))),
        List.of(EnvFromSource.configMap("app-config", false), EnvFromSource.secret("db", false)))).isNull();
  }

  // kubernetes pkg/kubelet/kubelet_pods_test.go, TestMakeEnvironmentVariables (a stored version; the index does not
  // show its commit): its four cases of a missing envFrom object. Upstream asserts an error for the two required ones
  // and, for the optional ones, the environment without the object's keys; the values are not computed here, so the
  // optional cases assert that no error stops the container.
  @Test
  void testMakeEnvironmentVariables_configmapMissing_isAnError() {
    assertThat(envError(List.of(), List.of(EnvFromSource.configMap("test-config-map", false))))
        .isEqualTo("configmap \"test-config-map\" not found");
  }

  @Test
  void testMakeEnvironmentVariables_configmapMissingOptional_isNoError() {
    assertThat(envError(List.of(), List.of(EnvFromSource.configMap("missing-config-map", true)))).isNull();
  }

  @Test
  void testMakeEnvironmentVariables_secretMissing_isAnError() {
    assertThat(envError(List.of(), List.of(EnvFromSource.secret("test-secret", false))))
        .isEqualTo("secret \"test-secret\" not found");
  }

  @Test
  void testMakeEnvironmentVariables_secretMissingOptional_isNoError() {
    assertThat(envError(List.of(), List.of(EnvFromSource.secret("missing-secret", true)))).isNull();
  }

  private List<ConfigReferences.MountFailure> mountFailures(Volume... volumes) {
    return ConfigReferences.mountFailures(pod(app(List.of(), List.of()), volumes), lookup);
  }

  @Test
  void mountFailures_missingObjects_inSpecOrder() {
    assertThat(mountFailures(new Volume("cfg", new VolumeSource.ConfigMap("app-config")),
        new Volume("creds", new VolumeSource.Secret("db")))).containsExactly(
        new ConfigReferences.MountFailure("cfg", "MountVolume.SetUp failed for volume \"cfg\" : configmap "
            + "\"app-config\" not found"),
        new ConfigReferences.MountFailure("creds", "MountVolume.SetUp failed for volume \"creds\" : secret \"db\" "
            + "not found"));
  }

  @Test
  void mountFailures_missingItemKey_isNamed_andBinaryDataCounts() {
    maps.put("shop/app-config", new ConfigMap(io.fleetkit.api.meta.ObjectMeta.of("shop", "app-config"),
        Map.of("a", "1"), Map.of("b", Bytes.of(new byte[] {1})), false));
    VolumeSource.ConfigMap items = new VolumeSource.ConfigMap("app-config", List.of(new KeyToPath("a", "a", null),
        new KeyToPath("b", "b", null), new KeyToPath("c", "c", null)), null, false);
    assertThat(mountFailures(new Volume("cfg", items))).extracting(ConfigReferences.MountFailure::message)
        .containsExactly("MountVolume.SetUp failed for volume \"cfg\" : configmap references non-existent config "
            + "key: c");
    secret("db", "user");
    VolumeSource.Secret secretItems = new VolumeSource.Secret("db", List.of(new KeyToPath("password", "p", null)),
        null, false);
    assertThat(mountFailures(new Volume("creds", secretItems))).extracting(ConfigReferences.MountFailure::message)
        .containsExactly("MountVolume.SetUp failed for volume \"creds\" : references non-existent secret key: "
            + "password");
  }

  @Test
  void mountFailures_optionalVolumes_mountWithoutTheObjectOrKey() {
    secret("db", "user");
    assertThat(mountFailures(new Volume("cfg", new VolumeSource.ConfigMap("gone", List.of(), null, true)),
        new Volume("creds", new VolumeSource.Secret("db", List.of(new KeyToPath("password", "p", null)), null,
            true)))).isEmpty();
  }

  @Test
  void hasConfigVolumes_onlyConfigMapAndSecretVolumes() {
    assertThat(ConfigReferences.hasConfigVolumes(pod(app(List.of(), List.of())))).isFalse();
    assertThat(ConfigReferences.hasConfigVolumes(pod(app(List.of(), List.of()),
        new Volume("s", new VolumeSource.Secret("db"))))).isTrue();
  }
}
