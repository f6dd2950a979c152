package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ConditionStatus;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/** Helpers for kinds fabric8 does not model, read from and written to {@code GenericKubernetesResource} maps. */
final class GenericKinds {
  private GenericKinds() {}

  static Map<String, Object> section(GenericKubernetesResource in, String key, DocumentContext ctx) {
    Map<String, Object> props = in.getAdditionalProperties();
    return props == null ? Map.of() : Untyped.map(props, key, key, ctx);
  }

  static GenericKubernetesResource resource(ApiObject<?> o, @Nullable Map<String, Object> spec,
      @Nullable Map<String, Object> status) {
    GenericKubernetesResource out = new GenericKubernetesResource();
    out.setApiVersion(o.apiVersion());
    out.setKind(o.kind());
    out.setMetadata(Fabric8Meta.toFabric8(o.metadata()));
    if (spec != null) {
      out.setAdditionalProperty("spec", spec);
    }
    if (status != null && !status.isEmpty()) {
      out.setAdditionalProperty("status", status);
    }
    return out;
  }

  /** Fields shared by condition shapes: type, status, lastTransitionTime, reason, message. */
  record ConditionFields(String type, @Nullable ConditionStatus status, @Nullable Instant lastTransitionTime,
      String reason, String message) {
    static ConditionFields read(Map<String, Object> m, String p, DocumentContext ctx) {
      String type = Untyped.string(m, "type", "", p + ".type", ctx);
      if (type.isEmpty()) {
        ctx.error(p + ".type", "is required", null);
      }
      ConditionStatus status = Values.requiredEnum(ConditionStatus.class,
          Untyped.string(m, "status", "", p + ".status", ctx), p + ".status", ctx);
      Instant time = Values.instant(Untyped.string(m, "lastTransitionTime", "", p + ".lastTransitionTime", ctx),
          p + ".lastTransitionTime", ctx);
      return new ConditionFields(type, status, time, Untyped.string(m, "reason", "", p + ".reason", ctx),
          Untyped.string(m, "message", "", p + ".message", ctx));
    }

    static Map<String, Object> write(String type, ConditionStatus status, @Nullable Instant time, String reason,
        String message) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", type);
      m.put("status", status.name());
      Untyped.put(m, "lastTransitionTime", Values.instant(time));
      Untyped.put(m, "reason", reason);
      Untyped.put(m, "message", message);
      return m;
    }
  }
}
