package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.core.Bytes;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * v1 Secret. {@code data} is base64 in YAML; {@code stringData} is folded into {@code data} (a {@code stringData}
 * key wins) and never written back. Problems never quote a value: a bad base64 value is reported without it.
 */
public final class SecretConverter extends AbstractKindConverter<io.fabric8.kubernetes.api.model.Secret, Secret> {
  public SecretConverter() {
    super(Secret.API_VERSION, Secret.KIND, true, io.fabric8.kubernetes.api.model.Secret.class, Secret.class);
  }

  @Override
  public @Nullable Secret toCore(io.fabric8.kubernetes.api.model.Secret in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    Map<String, Bytes> data = base64Map(in.getData(), "data", ctx);
    Map<String, String> stringData = new LinkedHashMap<>();
    if (in.getStringData() != null) {
      in.getStringData().forEach((k, v) -> {
        if (v == null) {
          ctx.error("stringData." + k, "must be a string, not null", null);
        } else {
          stringData.put(k, v);
        }
      });
    }
    String type = in.getType() == null || in.getType().isEmpty() ? Secret.TYPE_OPAQUE : in.getType();
    Map<String, Bytes> folded = Secret.fold(data, stringData);
    return ctx.build("", () -> new Secret(meta, type, folded, Values.boolOr(in.getImmutable(), false)));
  }

  /** Decodes base64 values; a bad one is reported without quoting it. */
  static Map<String, Bytes> base64Map(@Nullable Map<String, String> in, String path, DocumentContext ctx) {
    Map<String, Bytes> out = new LinkedHashMap<>();
    if (in == null) {
      return out;
    }
    in.forEach((k, v) -> {
      if (v == null) {
        out.put(k, Bytes.EMPTY);
        return;
      }
      try {
        out.put(k, Bytes.ofBase64(v.replace("\n", "").replace("\r", "")));
      } catch (IllegalArgumentException e) {
        ctx.error(path + "." + k, "must be base64-encoded (the value is not repeated here)", null);
      }
    });
    return out;
  }

  static @Nullable Map<String, String> base64(Map<String, Bytes> in) {
    if (in.isEmpty()) {
      return null;
    }
    Map<String, String> out = new TreeMap<>();
    in.forEach((k, v) -> out.put(k, v.base64()));
    return out;
  }

  @Override
  public io.fabric8.kubernetes.api.model.Secret toFabric8(Secret in) {
    return new SecretBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withType(in.type().equals(Secret.TYPE_OPAQUE) ? null : in.type())
        .withData(base64(in.data()))
        .withImmutable(in.immutable() ? Boolean.TRUE : null)
        .build();
  }
}
