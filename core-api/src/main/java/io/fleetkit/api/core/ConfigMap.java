package io.fleetkit.api.core;

import io.fleetkit.api.internal.DataChecks;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A config map (core/v1): configuration as text ({@code data}) and binary ({@code binaryData}) values by key. It has
 * no status; {@link #spec()} returns the desired fields as a {@link Desired}.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateConfigMap}: keys are valid config keys, no key is in both
 * maps, the values together are at most 1 MiB.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record ConfigMap(ObjectMeta metadata, Map<String, String> data, Map<String, Bytes> binaryData,
    boolean immutable) implements ApiObject<ConfigMap> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "ConfigMap";
  /**
   * The ConfigMap holding the cluster's root CA bundle in every namespace ({@code kube-root-ca.crt}), under the key
   * {@value #ROOT_CA_KEY}: the root CA publisher writes it, every pod's {@code kube-api-access-*} volume reads it.
   */
  public static final String ROOT_CA_NAME = "kube-root-ca.crt";
  /** The key of {@value #ROOT_CA_NAME} holding the bundle. */
  public static final String ROOT_CA_KEY = "ca.crt";

  /** The desired fields of a config map, what {@link #spec()} returns. */
  public record Desired(Map<String, String> data, Map<String, Bytes> binaryData, boolean immutable) {}

  public ConfigMap {
    Objects.requireNonNull(metadata, "metadata");
    data = java.util.Collections.unmodifiableMap(new TreeMap<>(data));
    binaryData = java.util.Collections.unmodifiableMap(new TreeMap<>(binaryData));
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    long size = DataChecks.stringKeys(v, "data", data);
    size += DataChecks.bytesKeys(v, "binaryData", binaryData);
    for (String key : binaryData.keySet()) {
      if (data.containsKey(key)) {
        v.add("binaryData[" + key + "]", "duplicate of key present in data", key);
      }
    }
    DataChecks.size(v, "", size);
    v.throwIfAny();
  }

  /** A mutable config map {@code namespace/name} with text {@code data}. */
  public static ConfigMap of(String namespace, String name, Map<String, String> data) {
    return new ConfigMap(ObjectMeta.of(namespace, name), data, Map.of(), false);
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public ConfigMap withMetadata(ObjectMeta m) {
    return new ConfigMap(m, data, binaryData, immutable);
  }

  @Override
  public Desired spec() {
    return new Desired(data, binaryData, immutable);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public ConfigMap withStatusOf(ConfigMap other) {
    return this;
  }
}
