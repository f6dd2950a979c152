package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.StopPolicy;
import io.fleetkit.queueing.manifest.KueueObject;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * The parts Kueue's kinds share ({@code kueue.x-k8s.io}, read from fabric8's {@code GenericKubernetesResource}): the
 * version an object is written in, resource groups (ClusterQueue and Cohort), {@code fairSharing.weight}, {@code
 * stopPolicy}, and Kueue's enum values by their API spelling. Stateless.
 */
final class KueueYaml {
  private static final Set<String> GROUP_FIELDS = Set.of("coveredResources", "flavors");
  private static final Set<String> FLAVOR_FIELDS = Set.of("name", "resources");
  private static final Set<String> QUOTA_FIELDS = Set.of("name", "nominalQuota", "borrowingLimit", "lendingLimit");
  private static final Set<String> FAIR_SHARING_FIELDS = Set.of("weight");

  private KueueYaml() {}

  /** The object's apiVersion ({@link KueueObject#V1BETA2} when absent: the reader has checked it already). */
  static String version(GenericKubernetesResource in) {
    return in.getApiVersion() == null ? KueueObject.V1BETA2 : in.getApiVersion();
  }

  /** Reports each field of {@code spec} not among {@code fields}, naming the version's fields. */
  static void known(Map<String, Object> spec, Set<String> fields, String version, String path, DocumentContext ctx) {
    for (String k : spec.keySet()) {
      if (!fields.contains(k)) {
        ctx.error(path + "." + k, "is not a field of " + path + " in " + version + " (fields: "
            + fields.stream().sorted().collect(Collectors.joining(", ")) + ")", null);
      }
    }
  }

  /**
   * The value spelled {@code text} among {@code values} (by their API names); {@code dflt} when absent or empty
   * (Kueue's CRD default); {@code null} (reported as Kueue's {@code supported values}) when unknown.
   */
  static <E> @Nullable E apiEnum(Map<String, E> values, String text, @Nullable E dflt, String path,
      DocumentContext ctx) {
    if (text.isEmpty()) {
      return dflt;
    }
    E e = values.get(text);
    if (e == null) {
      ctx.error(path, "supported values: " + values.keySet().stream().map(v -> "\"" + v + "\"")
          .collect(Collectors.joining(", ")), text);
    }
    return e;
  }

  /** {@code spec.stopPolicy}: None (the default), Hold or HoldAndDrain. */
  static @Nullable StopPolicy stopPolicy(Map<String, Object> spec, DocumentContext ctx) {
    Map<String, StopPolicy> values = new LinkedHashMap<>();
    for (StopPolicy p : StopPolicy.values()) {
      values.put(p.apiName(), p);
    }
    return apiEnum(values, Untyped.string(spec, "stopPolicy", "", "spec.stopPolicy", ctx), StopPolicy.NONE,
        "spec.stopPolicy", ctx);
  }

  static void putStopPolicy(Map<String, Object> spec, StopPolicy policy) {
    if (policy != StopPolicy.NONE) {
      spec.put("stopPolicy", policy.apiName());
    }
  }

  /** {@code fairSharing.weight} of {@code m} (Kueue's default 1 when absent). */
  static @Nullable Quantity fairSharingWeight(Map<String, Object> m, String path, DocumentContext ctx) {
    Map<String, Object> fs = Untyped.map(m, "fairSharing", path, ctx);
    Untyped.known(fs, FAIR_SHARING_FIELDS, path, ctx);
    return fs.containsKey("weight") ? quantity(fs, "weight", path + ".weight", ctx)
        : LocalQueue.DEFAULT_FAIR_SHARING_WEIGHT;
  }

  static void putFairSharing(Map<String, Object> m, Quantity weight) {
    if (!weight.equals(LocalQueue.DEFAULT_FAIR_SHARING_WEIGHT)) {
      m.put("fairSharing", Map.of("weight", weight.toString()));
    }
  }

  /** A quantity at {@code key} (a string or a number), not negative; {@code null} when absent or (reported) bad. */
  static @Nullable Quantity quantity(Map<String, Object> m, String key, String path, DocumentContext ctx) {
    Object v = m.get(key);
    if (v == null) {
      return null;
    }
    if (!(v instanceof String || v instanceof Number)) {
      ctx.error(path, "must be a quantity such as 500m, 2 or 1Gi", null);
      return null;
    }
    return Values.quantity(v instanceof java.math.BigDecimal d ? d.toPlainString() : String.valueOf(v), path, ctx);
  }

  /** {@code spec.resourceGroups}; groups with a reported problem are left out. */
  static List<ResourceGroup> resourceGroups(Map<String, Object> spec, DocumentContext ctx) {
    return Untyped.entries(spec, "resourceGroups", "spec.resourceGroups", ctx, KueueYaml::group);
  }

  private static @Nullable ResourceGroup group(Map<String, Object> m, String p, DocumentContext ctx) {
    Untyped.known(m, GROUP_FIELDS, p, ctx);
    if (!m.containsKey("coveredResources")) {
      ctx.error(p + ".coveredResources", "is required", null);
    }
    if (!m.containsKey("flavors")) {
      ctx.error(p + ".flavors", "is required", null);
    }
    List<String> covered = Untyped.stringList(m, "coveredResources", p + ".coveredResources", ctx);
    int errors = ctx.problems().size();
    List<FlavorQuotas> flavors = Untyped.entries(m, "flavors", p + ".flavors", ctx, KueueYaml::flavor);
    return ctx.problems().size() > errors ? null : new ResourceGroup(covered, flavors);
  }

  private static @Nullable FlavorQuotas flavor(Map<String, Object> m, String p, DocumentContext ctx) {
    Untyped.known(m, FLAVOR_FIELDS, p, ctx);
    String name = Values.required(Untyped.string(m, "name", "", p + ".name", ctx), p + ".name", ctx);
    int errors = ctx.problems().size();
    List<FlavorResourceQuota> quotas = Untyped.entries(m, "resources", p + ".resources", ctx, KueueYaml::quota);
    return name.isEmpty() || ctx.problems().size() > errors ? null : new FlavorQuotas(name, quotas);
  }

  private static @Nullable FlavorResourceQuota quota(Map<String, Object> m, String p, DocumentContext ctx) {
    Untyped.known(m, QUOTA_FIELDS, p, ctx);
    String name = Values.required(Untyped.string(m, "name", "", p + ".name", ctx), p + ".name", ctx);
    if (!m.containsKey("nominalQuota")) {
      ctx.error(p + ".nominalQuota", "is required", null);
    }
    Quantity nominal = quantity(m, "nominalQuota", p + ".nominalQuota", ctx);
    Quantity borrowing = quantity(m, "borrowingLimit", p + ".borrowingLimit", ctx);
    Quantity lending = quantity(m, "lendingLimit", p + ".lendingLimit", ctx);
    return name.isEmpty() || nominal == null || (m.get("borrowingLimit") != null && borrowing == null)
        || (m.get("lendingLimit") != null && lending == null) ? null
        : new FlavorResourceQuota(name, nominal, borrowing, lending);
  }

  /** Resource groups as a manifest writes them. */
  static List<Object> write(List<ResourceGroup> groups) {
    List<Object> out = new ArrayList<>();
    for (ResourceGroup g : groups) {
      List<Object> flavors = new ArrayList<>();
      for (FlavorQuotas f : g.flavors()) {
        List<Object> quotas = new ArrayList<>();
        for (FlavorResourceQuota q : f.resources()) {
          Map<String, Object> qm = new LinkedHashMap<>();
          qm.put("name", q.name());
          qm.put("nominalQuota", q.nominalQuota().toString());
          if (q.borrowingLimit() != null) {
            qm.put("borrowingLimit", q.borrowingLimit().toString());
          }
          if (q.lendingLimit() != null) {
            qm.put("lendingLimit", q.lendingLimit().toString());
          }
          quotas.add(qm);
        }
        Map<String, Object> fm = new LinkedHashMap<>();
        fm.put("name", f.name());
        fm.put("resources", quotas);
        flavors.add(fm);
      }
      Map<String, Object> gm = new LinkedHashMap<>();
      gm.put("coveredResources", g.coveredResources());
      gm.put("flavors", flavors);
      out.add(gm);
    }
    return out;
  }
}
