package io.fleetkit.adapter.kubernetes.yaml.internal;

import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorRequirementBuilder;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.labels.LabelSelectorOperator;
import io.fleetkit.api.labels.LabelSelectorRequirement;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Label selectors both ways. */
public final class Fabric8Selectors {
  private Fabric8Selectors() {}

  /** {@code null} when absent (a field that allows it treats that as "matches nothing"). */
  public static @Nullable LabelSelector toCore(io.fabric8.kubernetes.api.model.@Nullable LabelSelector in,
      String path, DocumentContext ctx) {
    if (in == null) {
      return null;
    }
    List<LabelSelectorRequirement> reqs = new ArrayList<>();
    List<io.fabric8.kubernetes.api.model.LabelSelectorRequirement> exprs = in.getMatchExpressions();
    for (int i = 0; exprs != null && i < exprs.size(); i++) {
      io.fabric8.kubernetes.api.model.LabelSelectorRequirement r = exprs.get(i);
      String p = path + ".matchExpressions[" + i + "]";
      String key = Values.required(r.getKey(), p + ".key", ctx);
      LabelSelectorOperator op = Values.requiredEnum(LabelSelectorOperator.class, r.getOperator(), p + ".operator",
          ctx);
      List<String> values = Values.stringList(r.getValues(), p + ".values", ctx);
      if (op != null) {
        LabelSelectorRequirement req = ctx.build(p, () -> new LabelSelectorRequirement(key, op, values));
        if (req != null) {
          reqs.add(req);
        }
      }
    }
    LabelSelector out = ctx.build(path, () -> new LabelSelector(
        Values.stringMap(in.getMatchLabels(), path + ".matchLabels", ctx), reqs));
    return out == null ? LabelSelector.EVERYTHING : out;
  }

  public static io.fabric8.kubernetes.api.model.@Nullable LabelSelector toFabric8(@Nullable LabelSelector in) {
    if (in == null) {
      return null;
    }
    List<io.fabric8.kubernetes.api.model.LabelSelectorRequirement> exprs = new ArrayList<>();
    for (LabelSelectorRequirement r : in.matchExpressions()) {
      exprs.add(new LabelSelectorRequirementBuilder().withKey(r.key()).withOperator(r.operator().name())
          .withValues(Values.emptyToNull(r.values())).build());
    }
    return new LabelSelectorBuilder().withMatchLabels(Values.emptyToNull(new java.util.TreeMap<>(in.matchLabels())))
        .withMatchExpressions(Values.emptyToNull(exprs)).build();
  }

  /**
   * A label selector written as an untyped map (a field of a kind fabric8 does not model); {@code null} when
   * {@code value} is {@code null} (absent).
   */
  public static @Nullable LabelSelector untyped(@Nullable Object value, String path, DocumentContext ctx) {
    if (value == null) {
      return null;
    }
    io.fabric8.kubernetes.api.model.LabelSelector f8;
    try {
      f8 = ManifestReader.SERIALIZATION.convertValue(value, io.fabric8.kubernetes.api.model.LabelSelector.class);
    } catch (RuntimeException e) {
      ctx.error(path, "must be a label selector (matchLabels, matchExpressions)", null);
      return null;
    }
    return toCore(f8, path, ctx);
  }

  /** {@code selector} as an untyped map, as a manifest writes it. */
  @SuppressWarnings("unchecked")
  public static java.util.Map<String, Object> untyped(LabelSelector selector) {
    return ManifestReader.SERIALIZATION.convertValue(toFabric8(selector), java.util.Map.class);
  }
}
