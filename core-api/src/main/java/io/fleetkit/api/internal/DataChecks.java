package io.fleetkit.api.internal;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.labels.Validation;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** Checks shared by ConfigMap and Secret data: key names and the total size limit. */
public final class DataChecks {
  /** Kubernetes' {@code MaxSecretSize}, also the ConfigMap limit: 1 MiB. */
  public static final int MAX_SIZE = 1024 * 1024;

  private DataChecks() {}

  /** Checks the keys of {@code data}; returns the size of the values in bytes. Values never enter a message. */
  public static long bytesKeys(Violations v, String field, Map<String, Bytes> data) {
    long size = 0;
    for (Map.Entry<String, Bytes> e : data.entrySet()) {
      key(v, field, e.getKey());
      size += e.getValue().size();
    }
    return size;
  }

  /** Checks the keys of {@code data}; returns the UTF-8 size of the values. */
  public static long stringKeys(Violations v, String field, Map<String, String> data) {
    long size = 0;
    for (Map.Entry<String, String> e : data.entrySet()) {
      key(v, field, e.getKey());
      size += e.getValue().getBytes(StandardCharsets.UTF_8).length;
    }
    return size;
  }

  private static void key(Violations v, String field, String key) {
    for (String rule : Validation.isConfigMapKey(key)) {
      v.add(field + "[" + key + "]", rule, key);
    }
  }

  /** Kubernetes' {@code field.TooLong} on the whole object. */
  public static void size(Violations v, String field, long size) {
    if (size > MAX_SIZE) {
      v.add(field, "Too long: may not be more than " + MAX_SIZE + " bytes", null);
    }
  }
}
