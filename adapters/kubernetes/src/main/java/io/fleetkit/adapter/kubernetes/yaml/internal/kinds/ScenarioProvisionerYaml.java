package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Untyped;
import io.fleetkit.api.simulation.ScenarioProvisioner;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A Scenario's {@code spec.provisioner} ({@link ScenarioProvisioner}), read from and written to an untyped map:
 * Karpenter's batch settings and its NodePool's {@code spec.disruption} fields, durations as Go durations,
 * {@code consolidateAfter} also {@code Never}, each budget's {@code nodes} a string (Karpenter's default {@code 10%}
 * when left out). A field left out stays unset (Karpenter's default); the rules on values are {@code Scenario}'s.
 * A budget's {@code schedule} and {@code duration} are refused as not modelled (every budget is always active).
 */
final class ScenarioProvisionerYaml {
  static final String PATH = "spec.provisioner";
  private static final Set<String> FIELDS = Set.of("batchIdleDuration", "batchMaxDuration", "consolidationPolicy",
      "consolidateAfter", "budgets");
  private static final Set<String> BUDGET_FIELDS = Set.of("nodes", "reasons");
  private static final Set<String> NOT_MODELLED_BUDGET_FIELDS = Set.of("schedule", "duration");
  /** Karpenter's CRD pattern for {@code consolidateAfter}. */
  private static final Pattern CONSOLIDATE_AFTER = Pattern.compile("^(([0-9]+(s|m|h))+|Never)$");
  private static final String NEVER = "Never";

  private ScenarioProvisionerYaml() {}

  /** The block {@code m}; unknown fields and values of the wrong type are reported, naming their path. */
  static ScenarioProvisioner read(Map<String, Object> m, DocumentContext ctx) {
    Untyped.known(m, FIELDS, PATH, ctx);
    ScenarioProvisioner.Builder b = ScenarioProvisioner.builder();
    b.batchIdleDuration(duration(m, "batchIdleDuration", ctx));
    b.batchMaxDuration(duration(m, "batchMaxDuration", ctx));
    if (m.containsKey("consolidationPolicy")) {
      b.consolidationPolicy(Untyped.string(m, "consolidationPolicy", "", PATH + ".consolidationPolicy", ctx));
    }
    if (m.containsKey("consolidateAfter")) {
      String path = PATH + ".consolidateAfter";
      String text = Untyped.string(m, "consolidateAfter", "", path, ctx);
      if (!CONSOLIDATE_AFTER.matcher(text).matches()) {
        ctx.error(path, "must be a duration in whole s, m and h units, or Never (Karpenter's pattern "
            + CONSOLIDATE_AFTER.pattern() + ")", text);
      } else {
        b.consolidateAfter(text.equals(NEVER) ? ScenarioProvisioner.NEVER
            : NodePoolConverter.duration(text, path, ctx));
      }
    }
    b.budgets(Untyped.entries(m, "budgets", PATH + ".budgets", ctx, ScenarioProvisionerYaml::budget));
    return b.build();
  }

  private static ScenarioProvisioner.@Nullable Budget budget(Map<String, Object> m, String path,
      DocumentContext ctx) {
    for (String k : NOT_MODELLED_BUDGET_FIELDS) {
      if (m.containsKey(k)) {
        ctx.error(path + "." + k, "is not modelled: FleetKit's provisioner has no budget schedules, every budget is "
            + "always active (leave out schedule and duration)", null);
      }
    }
    Map<String, Object> rest = new LinkedHashMap<>(m);
    rest.keySet().removeAll(NOT_MODELLED_BUDGET_FIELDS);
    Untyped.known(rest, BUDGET_FIELDS, path, ctx);
    String nodes = Untyped.string(m, "nodes", ScenarioProvisioner.Budget.DEFAULT_NODES, path + ".nodes", ctx);
    return new ScenarioProvisioner.Budget(nodes, Untyped.stringList(m, "reasons", path + ".reasons", ctx));
  }

  /** The block as {@link #read} reads it back: only the fields that are set. */
  static Map<String, Object> write(ScenarioProvisioner p) {
    Map<String, Object> m = new LinkedHashMap<>();
    NodePoolConverter.putDuration(m, "batchIdleDuration", p.batchIdleDuration());
    NodePoolConverter.putDuration(m, "batchMaxDuration", p.batchMaxDuration());
    Untyped.put(m, "consolidationPolicy", p.consolidationPolicy());
    if (p.consolidatesNever()) {
      m.put("consolidateAfter", NEVER);
    } else {
      NodePoolConverter.putDuration(m, "consolidateAfter", p.consolidateAfter());
    }
    List<Object> budgets = new ArrayList<>();
    for (ScenarioProvisioner.Budget budget : p.budgets()) {
      Map<String, Object> bm = new LinkedHashMap<>();
      bm.put("nodes", budget.nodes());
      Untyped.put(bm, "reasons", budget.reasons());
      budgets.add(bm);
    }
    Untyped.put(m, "budgets", budgets);
    return m;
  }

  private static @Nullable Duration duration(Map<String, Object> m, String key, DocumentContext ctx) {
    return NodePoolConverter.optionalDuration(m, key, PATH, ctx);
  }
}
