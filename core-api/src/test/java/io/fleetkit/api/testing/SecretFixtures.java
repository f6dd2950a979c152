package io.fleetkit.api.testing;

import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ResourceRequirements;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.List;
import java.util.Map;

/**
 * Objects that carry {@link CapturedLogs}' test secret values, for the tests that check no log line ever holds one.
 */
public final class SecretFixtures {
  private SecretFixtures() {
  }

  /** An Opaque Secret holding {@link CapturedLogs#TEST_SECRET} and {@link CapturedLogs#TEST_TOKEN}. */
  public static Secret secret(String namespace, String name) {
    return new Secret(ObjectMeta.of(namespace, name), Secret.TYPE_OPAQUE,
        Map.of("password", Bytes.ofUtf8(CapturedLogs.TEST_SECRET), "token", Bytes.ofUtf8(CapturedLogs.TEST_TOKEN)),
        false);
  }

  /** A ConfigMap whose {@code api-key} entry is {@link CapturedLogs#TEST_CONFIG_SECRET}. */
  public static ConfigMap configMap(String namespace, String name) {
    return ConfigMap.of(namespace, name, Map.of("api-key", CapturedLogs.TEST_CONFIG_SECRET));
  }

  /** A container whose env holds all three test secret values. */
  public static Container container(String name) {
    return new Container(name, "nginx", ResourceRequirements.NONE, List.of(), List.of(
        new EnvVar("DB_PASSWORD", CapturedLogs.TEST_SECRET), new EnvVar("TOKEN", CapturedLogs.TEST_TOKEN),
        new EnvVar("API_KEY", CapturedLogs.TEST_CONFIG_SECRET)), null);
  }

  /** A pod with one {@link #container}. */
  public static Pod pod(String namespace, String name) {
    return Pod.builder().namespace(namespace).name(name).container(container("app")).build();
  }
}
