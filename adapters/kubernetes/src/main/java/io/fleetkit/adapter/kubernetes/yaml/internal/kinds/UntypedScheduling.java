package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.scheduling.Taint;
import io.fleetkit.api.scheduling.TaintEffect;
import io.fleetkit.api.scheduling.Toleration;
import io.fleetkit.api.scheduling.TolerationOperator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Taints and tolerations in FleetKit's own kinds (read from and written to untyped maps, with the fields and spelling
 * of Kubernetes' {@code core/v1} Taint and Toleration); a bad entry is reported to the document's context with its
 * path and left out.
 */
final class UntypedScheduling {
  private static final Set<String> TAINT_FIELDS = Set.of("key", "value", "effect");
  private static final Set<String> TOLERATION_FIELDS = Set.of("key", "operator", "value", "effect",
      "tolerationSeconds");

  private UntypedScheduling() {}

  /** The taints listed at {@code key} of {@code m} ({@code path} names the list). */
  static List<Taint> taints(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    List<Taint> taints = new ArrayList<>();
    List<Object> raw = Untyped.list(m, key, path, ctx);
    for (int i = 0; i < raw.size(); i++) {
      String p = path + "[" + i + "]";
      Map<String, Object> t = Untyped.asMap(raw.get(i), p, ctx);
      Untyped.known(t, TAINT_FIELDS, p, ctx);
      String k = Values.required(Untyped.string(t, "key", "", p + ".key", ctx), p + ".key", ctx);
      TaintEffect effect = Values.requiredEnum(TaintEffect.class, Untyped.string(t, "effect", "", p + ".effect", ctx),
          p + ".effect", ctx);
      String value = Untyped.string(t, "value", "", p + ".value", ctx);
      if (effect != null && !k.isEmpty()) {
        Taint taint = ctx.build(p, () -> Taint.of(k, value, effect));
        if (taint != null) {
          taints.add(taint);
        }
      }
    }
    return taints;
  }

  /** The tolerations listed at {@code key} of {@code m} ({@code path} names the list). */
  static List<Toleration> tolerations(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    List<Toleration> out = new ArrayList<>();
    List<Object> raw = Untyped.list(m, key, path, ctx);
    for (int i = 0; i < raw.size(); i++) {
      String p = path + "[" + i + "]";
      Map<String, Object> t = Untyped.asMap(raw.get(i), p, ctx);
      Untyped.known(t, TOLERATION_FIELDS, p, ctx);
      String k = Untyped.string(t, "key", "", p + ".key", ctx);
      TolerationOperator op = Values.enumValue(TolerationOperator.class,
          Untyped.string(t, "operator", "", p + ".operator", ctx), TolerationOperator.Equal, p + ".operator", ctx);
      String value = Untyped.string(t, "value", "", p + ".value", ctx);
      TaintEffect effect = Values.enumValue(TaintEffect.class, Untyped.string(t, "effect", "", p + ".effect", ctx),
          null, p + ".effect", ctx);
      Long seconds = Untyped.integer(t, "tolerationSeconds", p + ".tolerationSeconds", ctx);
      if (op != null) {
        Toleration toleration = ctx.build(p, () -> new Toleration(k, op, value, effect, seconds));
        if (toleration != null) {
          out.add(toleration);
        }
      }
    }
    return out;
  }

  /** {@code taints} as manifests write them. */
  static List<Object> write(List<Taint> taints) {
    List<Object> out = new ArrayList<>();
    for (Taint taint : taints) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("key", taint.key());
      Untyped.put(m, "value", taint.value());
      m.put("effect", taint.effect().name());
      out.add(m);
    }
    return out;
  }

  /** {@code tolerations} as manifests write them. */
  static List<Object> writeTolerations(List<Toleration> tolerations) {
    List<Object> out = new ArrayList<>();
    for (Toleration t : tolerations) {
      Map<String, Object> m = new LinkedHashMap<>();
      Untyped.put(m, "key", t.key());
      m.put("operator", t.operator().name());
      Untyped.put(m, "value", t.value());
      if (t.effect() != null) {
        m.put("effect", t.effect().name());
      }
      Untyped.put(m, "tolerationSeconds", t.tolerationSeconds());
      out.add(m);
    }
    return out;
  }
}
