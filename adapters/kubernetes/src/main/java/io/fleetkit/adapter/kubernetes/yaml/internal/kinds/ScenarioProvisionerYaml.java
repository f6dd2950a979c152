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
 * Karpenter's batch settings, its NodePool's {@code spec.disruption} fields and its template's {@code expireAfter},
 * durations as Go durations, {@code consolidateAfter} and {@code expireAfter} in Karpenter's pattern (whole s, m and h
 * units, or {@code Never}), {@code terminationGracePeriod} in its own (whole s, m and h units), each budget's {@code nodes} a string (Karpenter's default {@code 10%} when left out), its
 * {@code schedule} a string and its {@code duration} in Karpenter's pattern (hours and minutes). A field left out stays
 * unset (Karpenter's default); the rules on values are {@code Scenario}'s.
 */
final class ScenarioProvisionerYaml {
  static final String PATH = "spec.provisioner";
  private static final Set<String> FIELDS = Set.of("batchIdleDuration", "batchMaxDuration", "consolidationPolicy",
      "consolidateAfter", "expireAfter", "terminationGracePeriod", "budgets");
  private static final Set<String> BUDGET_FIELDS = Set.of("nodes", "reasons", "schedule", "duration");
  /** Karpenter's CRD pattern for {@code consolidateAfter} and {@code expireAfter}. */
  private static final Pattern NILLABLE_DURATION = Pattern.compile("^(([0-9]+(s|m|h))+|Never)$");
  private static final Pattern TERMINATION_GRACE_PERIOD =
      Pattern.compile(ScenarioProvisioner.TERMINATION_GRACE_PERIOD_PATTERN);
  private static final Pattern BUDGET_DURATION = Pattern.compile(ScenarioProvisioner.BUDGET_DURATION_PATTERN);
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
    b.consolidateAfter(nillableDuration(m, "consolidateAfter", ctx));
    b.expireAfter(nillableDuration(m, "expireAfter", ctx));
    b.terminationGracePeriod(terminationGracePeriod(m, ctx));
    b.budgets(Untyped.entries(m, "budgets", PATH + ".budgets", ctx, ScenarioProvisionerYaml::budget));
    return b.build();
  }

  /**
   * The duration at {@code key} in Karpenter's {@code NillableDuration} pattern: {@link ScenarioProvisioner#NEVER} for
   * {@code Never}; {@code null} when left out or (reported) refused.
   */
  private static @Nullable Duration nillableDuration(Map<String, Object> m, String key, DocumentContext ctx) {
    String text = matching(m, key, NILLABLE_DURATION, "must be a duration in whole s, m and h units, or Never", ctx);
    return text == null ? null : text.equals(NEVER) ? ScenarioProvisioner.NEVER
        : NodePoolConverter.duration(text, PATH + "." + key, ctx);
  }

  /**
   * {@code terminationGracePeriod} in Karpenter's CRD pattern (whole s, m and h units; no {@code Never}: unset is
   * forever); {@code null} when left out or (reported) refused.
   */
  private static @Nullable Duration terminationGracePeriod(Map<String, Object> m, DocumentContext ctx) {
    String key = "terminationGracePeriod";
    String text = matching(m, key, TERMINATION_GRACE_PERIOD, "must be a duration in whole s, m and h units; leave it "
        + "out to wait for the drain as long as it takes", ctx);
    return text == null ? null : NodePoolConverter.duration(text, PATH + "." + key, ctx);
  }

  /**
   * The string at {@code key} when it matches Karpenter's {@code pattern}; {@code null} when left out or not matching
   * (reported with {@code rule} and the pattern).
   */
  private static @Nullable String matching(Map<String, Object> m, String key, Pattern pattern, String rule,
      DocumentContext ctx) {
    if (!m.containsKey(key)) {
      return null;
    }
    String path = PATH + "." + key;
    String text = Untyped.string(m, key, "", path, ctx);
    if (!pattern.matcher(text).matches()) {
      ctx.error(path, rule + " (Karpenter's pattern " + pattern.pattern() + ")", text);
      return null;
    }
    return text;
  }

  private static ScenarioProvisioner.@Nullable Budget budget(Map<String, Object> m, String path,
      DocumentContext ctx) {
    Untyped.known(m, BUDGET_FIELDS, path, ctx);
    String nodes = Untyped.string(m, "nodes", ScenarioProvisioner.Budget.DEFAULT_NODES, path + ".nodes", ctx);
    String schedule = m.containsKey("schedule") ? Untyped.string(m, "schedule", "", path + ".schedule", ctx) : null;
    Duration duration = null;
    if (m.containsKey("duration")) {
      String text = Untyped.string(m, "duration", "", path + ".duration", ctx);
      if (!BUDGET_DURATION.matcher(text).matches()) {
        ctx.error(path + ".duration", "must be a duration in hours and minutes, as cron has no seconds (Karpenter's "
            + "pattern " + ScenarioProvisioner.BUDGET_DURATION_PATTERN + ")", text);
      } else {
        duration = NodePoolConverter.duration(text, path + ".duration", ctx);
      }
    }
    return new ScenarioProvisioner.Budget(nodes, Untyped.stringList(m, "reasons", path + ".reasons", ctx), schedule,
        duration);
  }

  /** The block as {@link #read} reads it back: only the fields that are set. */
  static Map<String, Object> write(ScenarioProvisioner p) {
    Map<String, Object> m = new LinkedHashMap<>();
    NodePoolConverter.putDuration(m, "batchIdleDuration", p.batchIdleDuration());
    NodePoolConverter.putDuration(m, "batchMaxDuration", p.batchMaxDuration());
    Untyped.put(m, "consolidationPolicy", p.consolidationPolicy());
    putNillable(m, "consolidateAfter", p.consolidateAfter());
    putNillable(m, "expireAfter", p.expireAfter());
    NodePoolConverter.putDuration(m, "terminationGracePeriod", p.terminationGracePeriod());
    List<Object> budgets = new ArrayList<>();
    for (ScenarioProvisioner.Budget budget : p.budgets()) {
      Map<String, Object> bm = new LinkedHashMap<>();
      bm.put("nodes", budget.nodes());
      Untyped.put(bm, "reasons", budget.reasons());
      Untyped.put(bm, "schedule", budget.schedule());
      NodePoolConverter.putDuration(bm, "duration", budget.duration());
      budgets.add(bm);
    }
    Untyped.put(m, "budgets", budgets);
    return m;
  }

  private static void putNillable(Map<String, Object> m, String key, @Nullable Duration d) {
    if (ScenarioProvisioner.NEVER.equals(d)) {
      m.put(key, NEVER);
    } else {
      NodePoolConverter.putDuration(m, key, d);
    }
  }

  private static @Nullable Duration duration(Map<String, Object> m, String key, DocumentContext ctx) {
    return NodePoolConverter.optionalDuration(m, key, PATH, ctx);
  }
}
