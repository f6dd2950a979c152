package io.fleetkit.api.store.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.ConfigMap;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The update rules of Secrets and ConfigMaps, ported from kubernetes
 * {@code pkg/apis/core/validation/validation_test.go} at commit 000f26050b9be6fb3d79fae95e06b47fc96128cd:
 * {@code TestValidateSecretUpdate} 7 of 7 and {@code TestValidateConfigMapUpdate} 8 of 9 (left out: "invalid", an
 * update without resourceVersion, which FleetKit's store accepts as an unconditional update). FleetKit's {@code immutable} is a boolean: upstream's unset flag is
 * {@code false}, so "revert immutable ..." and "mark immutable ... mutable" both set it to {@code false}.
 */
final class ConfigDataUpdateRulesTest {
  private static final String FORBIDDEN = "Forbidden: field is immutable when `immutable` is set";

  private static Secret secret(Map<String, String> data, boolean immutable) {
    Map<String, Bytes> bytes = new TreeMap<>();
    data.forEach((k, v) -> bytes.put(k, Bytes.ofUtf8(v)));
    return new Secret(ObjectMeta.of("bar", "foo").withResourceVersion("20"), Secret.TYPE_OPAQUE, bytes, immutable);
  }

  @Test
  void secretUpdate_upstreamCases() {
    Map<String, String> data = Map.of("data-1", "bar");
    Map<String, String> added = Map.of("data-1", "bar", "data-2", "baz");
    Map<String, String> changed = Map.of("data-1", "foo");
    ok(secret(data, false), secret(data, true)); // mark secret immutable
    refused(secret(data, true), secret(data, false), "immutable"); // revert immutable secret
    refused(secret(data, true), secret(data, false), "immutable"); // makr immutable secret mutable
    ok(secret(data, false), secret(added, false)); // add data in secret
    refused(secret(data, true), secret(added, true), "data"); // add data in immutable secret
    ok(secret(data, false), secret(changed, false)); // change data in secret
    refused(secret(data, true), secret(changed, true), "data"); // change data in immutable secret
  }

  private static ConfigMap configMap(Map<String, String> data, boolean immutable) {
    return new ConfigMap(ObjectMeta.of("validdns", "validname").withResourceVersion("1"), data, Map.of(),
        immutable);
  }

  @Test
  void configMapUpdate_upstreamCases() {
    Map<String, String> data = Map.of("key", "value");
    Map<String, String> added = Map.of("key", "value", "key-2", "value-2");
    Map<String, String> changed = Map.of("key", "foo");
    ok(configMap(data, false), configMap(data, false)); // valid
    ok(configMap(data, false), configMap(data, true)); // mark configmap immutable
    refused(configMap(data, true), configMap(data, false), "immutable"); // revert immutable configmap
    refused(configMap(data, true), configMap(data, false), "immutable"); // mark immutable configmap mutable
    ok(configMap(data, false), configMap(added, false)); // add data in configmap
    refused(configMap(data, true), configMap(added, true), "data"); // add data in immutable configmap
    ok(configMap(data, false), configMap(changed, false)); // change data in configmap
    refused(configMap(data, true), configMap(changed, true), "data"); // change data in immutable configmap
  }

  private static void ok(ApiObject<?> old, ApiObject<?> updated) {
    assertThatCode(() -> UpdateChecks.update(old, updated, false)).doesNotThrowAnyException();
  }

  private static void refused(ApiObject<?> old, ApiObject<?> updated, String field) {
    assertThatThrownBy(() -> UpdateChecks.update(old, updated, false))
        .isInstanceOf(ValidationException.class)
        .hasMessageContaining(FORBIDDEN)
        .satisfies(e -> assertThat(((ValidationException) e).violations()).extracting(Violation::field)
            .contains(field));
  }
}
