package io.fleetkit.api.core;

import io.fleetkit.api.internal.DataChecks;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * A secret (core/v1): sensitive values by key. Manifests may give values as {@code stringData}; as in Kubernetes
 * they are folded into {@code data} (UTF-8, a {@code stringData} key replacing the same {@code data} key), so the
 * record holds only {@code data}. Values are {@link Bytes}, whose {@code toString} shows only a length: neither this
 * record's {@link #toString()} nor a validation message ever contains a value.
 *
 * <p>The constructor checks Kubernetes' {@code ValidateSecret}: keys are valid config keys, the values together are
 * at most 1 MiB, and the keys each built-in type requires are present. It has no status.
 *
 * <p>The constructor throws {@link io.fleetkit.api.ValidationException} when a rule is broken
 */
public record Secret(ObjectMeta metadata, String type, Map<String, Bytes> data, boolean immutable)
    implements ApiObject<Secret> {
  public static final String API_VERSION = "v1";
  public static final String KIND = "Secret";
  public static final String TYPE_OPAQUE = "Opaque";
  public static final String TYPE_SERVICE_ACCOUNT_TOKEN = "kubernetes.io/service-account-token";
  public static final String TYPE_DOCKERCFG = "kubernetes.io/dockercfg";
  public static final String TYPE_DOCKER_CONFIG_JSON = "kubernetes.io/dockerconfigjson";
  public static final String TYPE_BASIC_AUTH = "kubernetes.io/basic-auth";
  public static final String TYPE_SSH_AUTH = "kubernetes.io/ssh-auth";
  public static final String TYPE_TLS = "kubernetes.io/tls";
  /** The annotation a service-account-token secret must carry. */
  public static final String SERVICE_ACCOUNT_NAME_ANNOTATION = "kubernetes.io/service-account.name";

  /** The desired fields of a secret, what {@link #spec()} returns. */
  public record Desired(String type, Map<String, Bytes> data, boolean immutable) {}

  public Secret {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(type, "type");
    data = Collections.unmodifiableMap(new TreeMap<>(data));
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    DataChecks.size(v, "data", DataChecks.bytesKeys(v, "data", data));
    switch (type) {
      case TYPE_SERVICE_ACCOUNT_TOKEN -> {
        if (metadata.annotations().getOrDefault(SERVICE_ACCOUNT_NAME_ANNOTATION, "").isEmpty()) {
          v.required("metadata.annotations[" + SERVICE_ACCOUNT_NAME_ANNOTATION + "]");
        }
      }
      case TYPE_DOCKERCFG -> requireKey(v, data, ".dockercfg");
      case TYPE_DOCKER_CONFIG_JSON -> requireKey(v, data, ".dockerconfigjson");
      case TYPE_BASIC_AUTH -> {
        if (!data.containsKey("username") && !data.containsKey("password")) {
          v.required("data[username]");
          v.required("data[password]");
        }
      }
      case TYPE_SSH_AUTH -> {
        Bytes key = data.get("ssh-privatekey");
        if (key == null || key.size() == 0) {
          v.required("data[ssh-privatekey]");
        }
      }
      case TYPE_TLS -> {
        requireKey(v, data, "tls.crt");
        requireKey(v, data, "tls.key");
      }
      default -> { }
    }
    v.throwIfAny();
  }

  private static void requireKey(Violations v, Map<String, Bytes> data, String key) {
    if (!data.containsKey(key)) {
      v.required("data[" + key + "]");
    }
  }

  /** An opaque secret {@code namespace/name} holding {@code data}. */
  public static Secret of(String namespace, String name, Map<String, Bytes> data) {
    return new Secret(ObjectMeta.of(namespace, name), TYPE_OPAQUE, data, false);
  }

  /**
   * {@code data} with {@code stringData} folded in, as the API server does: each string is UTF-8 encoded and
   * replaces a {@code data} value of the same key.
   */
  public static Map<String, Bytes> fold(Map<String, Bytes> data, Map<String, String> stringData) {
    Map<String, Bytes> out = new LinkedHashMap<>(data);
    stringData.forEach((k, s) -> out.put(k, Bytes.ofUtf8(s)));
    return out;
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
  public Secret withMetadata(ObjectMeta m) {
    return new Secret(m, type, data, immutable);
  }

  @Override
  public Desired spec() {
    return new Desired(type, data, immutable);
  }

  @Override
  public @Nullable Object status() {
    return null;
  }

  @Override
  public Secret withStatusOf(Secret other) {
    return this;
  }

  /** Names the secret, its type and its keys; never a value. */
  @Override
  public String toString() {
    return "Secret[" + metadata.key() + ", type=" + type + ", keys=" + data.keySet() + ", immutable=" + immutable
        + "]";
  }
}
