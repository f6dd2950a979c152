package io.fleetkit.api.simulation;

import io.fleetkit.api.Violations;
import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.meta.IntOrPercent;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The Karpenter-style provisioner's options a scenario sets: Karpenter's batching settings, its NodePool's
 * {@code spec.disruption} and the {@code expireAfter} of the NodePool's template, each named as Karpenter names it; an
 * option left out ({@code null}, or no budgets) keeps Karpenter's default. The provisioner plays one Karpenter NodePool
 * (the scenario's NodePools are its instance types), so these fields hold for all of its nodes. The simulator passes them to the provisioner it runs when {@code features.provisioner} is on
 * ({@link Scenario} refuses them when it is off).
 *
 * <pre>
 * provisioner:
 *   batchIdleDuration: 1s                 # BATCH_IDLE_DURATION (1s)
 *   batchMaxDuration: 10s                 # BATCH_MAX_DURATION (10s)
 *   consolidationPolicy: WhenEmpty        # disruption.consolidationPolicy (WhenEmptyOrUnderutilized)
 *   consolidateAfter: 5m                  # disruption.consolidateAfter (0s), or Never
 *   expireAfter: 24h                      # template.spec.expireAfter (720h), or Never
 *   terminationGracePeriod: 1h            # template.spec.terminationGracePeriod (unset: drains wait forever)
 *   budgets:                              # disruption.budgets ([{nodes: "10%"}])
 *   - nodes: "20%"
 *   - nodes: "0"
 *     reasons: [Underutilized]
 *     schedule: "0 9 * * mon-fri"         # active from each hit of this cron (UTC) ...
 *     duration: 8h                        # ... for this long
 * </pre>
 *
 * <p>The record holds what was written; {@link Scenario} validates it as Karpenter's CRD does (durations not
 * negative, {@code consolidateAfter} and {@code expireAfter} in whole seconds, the policy and reasons from their enums,
 * {@code nodes} matching {@value #NODES_PATTERN}, a budget's {@code schedule} a cron schedule and its {@code duration}
 * whole minutes, each set only with the other, at most {@value #MAX_ITEMS} budgets and reasons) and names the field of
 * each broken rule.
 *
 * @param batchIdleDuration a batch of pending pods closes this long after its last new pod
 * @param batchMaxDuration a batch closes at the latest this long after it opened
 * @param consolidationPolicy one of {@link #POLICIES}: which nodes consolidation may remove or replace
 * @param consolidateAfter how long after the last pod event on a node (a pod bound to it, or gone from it) the node
 *     may be consolidated; {@link #NEVER}: no consolidation at all
 * @param budgets the disruption budgets, of which the most restrictive active one that applies counts; empty:
 *     Karpenter's default, one budget of {@code 10%} for every reason
 * @param expireAfter how long after its launch a node is expired (deleted whatever the budgets, its pods rescheduled);
 *     {@link #NEVER}: never; {@code null}: Karpenter's default, {@link #DEFAULT_EXPIRE_AFTER}
 * @param terminationGracePeriod how long a node's drain may wait on pods that PodDisruptionBudgets or
 *     {@code karpenter.sh/do-not-disrupt} keep before the remaining pods are deleted (each early enough to get its own
 *     {@code terminationGracePeriodSeconds} by then); {@code null}: unset, the drain waits as long as it takes
 */
public record ScenarioProvisioner(@Nullable Duration batchIdleDuration, @Nullable Duration batchMaxDuration,
    @Nullable String consolidationPolicy, @Nullable Duration consolidateAfter, List<Budget> budgets,
    @Nullable Duration expireAfter, @Nullable Duration terminationGracePeriod) {
  /** The policies a scenario may name: Karpenter's NodePool {@code consolidationPolicy} values. */
  public static final List<String> POLICIES = List.of("WhenEmpty", "WhenEmptyOrUnderutilized", "Balanced");
  /** Karpenter's default policy. */
  public static final String DEFAULT_POLICY = "WhenEmptyOrUnderutilized";
  /** The disruption reasons a budget may name (Karpenter's {@code DisruptionReason}). */
  public static final List<String> REASONS = List.of("Underutilized", "Empty", "Drifted");
  /** Karpenter's pattern for a budget's {@code nodes}: a count, or a percentage up to 100. */
  public static final String NODES_PATTERN = "^((100|[0-9]{1,2})%|[0-9]+)$";
  /** Karpenter's most budgets per NodePool, and most reasons per budget. */
  public static final int MAX_ITEMS = 50;
  /**
   * {@code consolidateAfter: Never} or {@code expireAfter: Never}: a wait that never ends, so the provisioner
   * consolidates nothing, or expires no node.
   */
  public static final Duration NEVER = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
  /** Karpenter's default {@code expireAfter} (its CRD's {@code 720h}, 30 days). */
  public static final Duration DEFAULT_EXPIRE_AFTER = Duration.ofHours(720);
  /**
   * Karpenter's CRD pattern for a budget's {@code schedule}: five fields, or one of the descriptors it names (no
   * {@code @every}); what matches must also parse as robfig/cron's standard parser reads it, in UTC.
   */
  public static final String SCHEDULE_PATTERN =
      "^(@(annually|yearly|monthly|weekly|daily|midnight|hourly))|((.+)\\s(.+)\\s(.+)\\s(.+)\\s(.+))$";
  /** Karpenter's CRD pattern for {@code terminationGracePeriod}: whole s, m and h units ({@code Never} is not one). */
  public static final String TERMINATION_GRACE_PERIOD_PATTERN = "^([0-9]+(s|m|h))+$";
  /** Karpenter's CRD pattern for a budget's {@code duration}: hours and minutes only, as cron has no seconds. */
  public static final String BUDGET_DURATION_PATTERN = "^((([0-9]+(h|m))|([0-9]+h[0-9]+m))(0s)?)$";
  /** Nothing set: Karpenter's defaults. */
  public static final ScenarioProvisioner DEFAULTS = builder().build();

  private static final Pattern NODES = Pattern.compile(NODES_PATTERN);
  private static final Pattern SCHEDULE = Pattern.compile(SCHEDULE_PATTERN);

  public ScenarioProvisioner {
    budgets = List.copyOf(budgets);
  }

  /**
   * One disruption budget (Karpenter's {@code NodePool.spec.disruption.budgets[]}): always active without a schedule,
   * else from each hit of its {@code schedule} (UTC) for its {@code duration}.
   *
   * @param nodes how many nodes, or what percentage of them (rounded up), may be disrupted at once
   * @param reasons the reasons it applies to, from {@link #REASONS}; empty: all
   * @param schedule when the budget becomes active, a cron schedule ({@link #SCHEDULE_PATTERN}); {@code null}: always
   *     active (then {@code duration} is {@code null} too)
   * @param duration how long the budget stays active after each hit of {@code schedule}
   */
  public record Budget(String nodes, List<String> reasons, @Nullable String schedule, @Nullable Duration duration) {
    /** Karpenter's default {@code nodes}. */
    public static final String DEFAULT_NODES = "10%";

    public Budget {
      Objects.requireNonNull(nodes, "nodes");
      reasons = List.copyOf(reasons);
    }

    /** An always active budget. */
    public Budget(String nodes, List<String> reasons) {
      this(nodes, reasons, null, null);
    }

    /** An always active budget of {@code nodes} for every reason. */
    public static Budget of(String nodes) {
      return new Budget(nodes, List.of());
    }

    /**
     * {@link #schedule()} parsed as Karpenter's {@code IsActive} parses it (robfig/cron's standard parser after a
     * {@code TZ=UTC} prefix, so a schedule of its own zone is refused), or {@code null} when there is none.
     *
     * @throws IllegalArgumentException when it does not match {@value ScenarioProvisioner#SCHEDULE_PATTERN} or the
     *     parser refuses it, with the parser's reason
     */
    public @Nullable CronSchedule scheduleValue() {
      if (schedule == null) {
        return null;
      }
      try {
        return parseSchedule(schedule);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("schedule \"" + schedule + "\" " + e.getMessage(), e);
      }
    }

    /**
     * {@link #nodes()} as a count or percentage.
     *
     * @throws IllegalArgumentException when it does not match {@value ScenarioProvisioner#NODES_PATTERN}
     */
    public IntOrPercent nodesValue() {
      if (!NODES.matcher(nodes).matches()) {
        throw new IllegalArgumentException("nodes \"" + nodes + "\" must match " + NODES_PATTERN);
      }
      if (nodes.endsWith("%")) {
        return IntOrPercent.parse(nodes);
      }
      // a count past int's range is more nodes than any cluster has
      return nodes.length() > 9 && new java.math.BigInteger(nodes).bitLength() > 31
          ? IntOrPercent.of(Integer.MAX_VALUE) : IntOrPercent.of(Integer.parseInt(nodes));
    }

    /** {@link #scheduleValue()} of {@code s}; the exception's message is the broken rule. */
    private static CronSchedule parseSchedule(String s) {
      // Go's MatchString: the pattern's anchors are its own (its first branch is anchored at the start only)
      if (!SCHEDULE.matcher(s).find()) {
        throw new IllegalArgumentException("must be 5 cron fields or one of @annually, @yearly, @monthly, @weekly, "
            + "@daily, @midnight, @hourly (Karpenter's pattern " + SCHEDULE_PATTERN + ")");
      }
      try {
        return CronSchedule.parse("TZ=UTC " + s);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException("must be a cron schedule in UTC: " + e.getMessage(), e);
      }
    }
  }

  /** A builder with nothing set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these options. */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.batchIdleDuration = batchIdleDuration;
    b.batchMaxDuration = batchMaxDuration;
    b.consolidationPolicy = consolidationPolicy;
    b.consolidateAfter = consolidateAfter;
    b.budgets = budgets;
    b.expireAfter = expireAfter;
    b.terminationGracePeriod = terminationGracePeriod;
    return b;
  }

  /** Whether {@code consolidateAfter} is {@code Never}. */
  public boolean consolidatesNever() {
    return NEVER.equals(consolidateAfter);
  }

  /** Whether {@code expireAfter} is {@code Never}. */
  public boolean expiresNever() {
    return NEVER.equals(expireAfter);
  }

  /**
   * Records in {@code v} each rule these options break, naming the field under {@code p} ({@code spec.provisioner}):
   * Karpenter's CRD rules for its NodePool's {@code spec.disruption} and a non-negative batch window.
   */
  void validate(Violations v, String p) {
    nonNegative(v, p + ".batchIdleDuration", batchIdleDuration);
    nonNegative(v, p + ".batchMaxDuration", batchMaxDuration);
    if (consolidationPolicy != null && !POLICIES.contains(consolidationPolicy)) {
      v.add(p + ".consolidationPolicy", "must be one of " + String.join(", ", POLICIES), consolidationPolicy);
    }
    wholeSecondsOrNever(v, p + ".consolidateAfter", consolidateAfter);
    wholeSecondsOrNever(v, p + ".expireAfter", expireAfter);
    if (terminationGracePeriod != null && (terminationGracePeriod.isNegative() || terminationGracePeriod.getNano() != 0
        || NEVER.equals(terminationGracePeriod))) {
      v.add(p + ".terminationGracePeriod", "must be a duration of whole seconds, not negative (Karpenter's pattern "
          + TERMINATION_GRACE_PERIOD_PATTERN + ")", terminationGracePeriod);
    }
    if (budgets.size() > MAX_ITEMS) {
      v.add(p + ".budgets", "must have at most " + MAX_ITEMS + " items", budgets.size());
    }
    for (int i = 0; i < budgets.size(); i++) {
      Budget b = budgets.get(i);
      String bp = p + ".budgets[" + i + "]";
      if (!NODES.matcher(b.nodes()).matches()) {
        v.add(bp + ".nodes", "must be a count or a percentage up to 100% (Karpenter's pattern " + NODES_PATTERN + ")",
            b.nodes());
      }
      validateSchedule(v, bp, b);
      if (b.reasons().size() > MAX_ITEMS) {
        v.add(bp + ".reasons", "must have at most " + MAX_ITEMS + " items", b.reasons().size());
      }
      Set<String> seen = new HashSet<>();
      for (int j = 0; j < b.reasons().size(); j++) {
        String r = b.reasons().get(j);
        if (!REASONS.contains(r)) {
          v.add(bp + ".reasons[" + j + "]", "must be one of " + String.join(", ", REASONS), r);
        } else if (!seen.add(r)) {
          v.add(bp + ".reasons[" + j + "]", Violations.DUPLICATE, r);
        }
      }
    }
  }

  /** A budget's schedule and duration: both or neither, a cron schedule, whole minutes (Karpenter's CRD). */
  private static void validateSchedule(Violations v, String bp, Budget b) {
    if ((b.schedule() == null) != (b.duration() == null)) {
      v.add(bp, "'schedule' must be set with 'duration' (both or neither)", b.schedule() == null ? "duration only"
          : "schedule only");
    }
    String schedule = b.schedule();
    if (schedule != null) {
      try {
        Budget.parseSchedule(schedule);
      } catch (IllegalArgumentException e) {
        v.add(bp + ".schedule", e.getMessage(), schedule);
      }
    }
    Duration d = b.duration();
    if (d != null && (d.isNegative() || d.toSecondsPart() != 0 || d.toNanosPart() != 0)) {
      v.add(bp + ".duration", "must be whole minutes or hours, not negative (Karpenter's pattern "
          + BUDGET_DURATION_PATTERN + ")", d);
    }
  }

  /** A wait of Karpenter's pattern {@code ^(([0-9]+(s|m|h))+|Never)$}: whole seconds, not negative, or Never. */
  private static void wholeSecondsOrNever(Violations v, String field, @Nullable Duration d) {
    if (d == null || NEVER.equals(d)) {
      return;
    }
    if (d.isNegative()) {
      v.add(field, Violations.NON_NEGATIVE, d);
    } else if (d.getNano() != 0) {
      v.add(field, "must be whole seconds, or Never (Karpenter's pattern ^(([0-9]+(s|m|h))+|Never)$)", d);
    }
  }

  private static void nonNegative(Violations v, String field, @Nullable Duration d) {
    if (d != null && d.isNegative()) {
      v.add(field, Violations.NON_NEGATIVE, d);
    }
  }

  /** Builds {@link ScenarioProvisioner}; every option starts unset (Karpenter's default). Not thread-safe. */
  public static final class Builder {
    private @Nullable Duration batchIdleDuration;
    private @Nullable Duration batchMaxDuration;
    private @Nullable String consolidationPolicy;
    private @Nullable Duration consolidateAfter;
    private List<Budget> budgets = List.of();
    private @Nullable Duration expireAfter;
    private @Nullable Duration terminationGracePeriod;

    private Builder() {}

    public Builder batchIdleDuration(@Nullable Duration v) { batchIdleDuration = v; return this; }
    public Builder batchMaxDuration(@Nullable Duration v) { batchMaxDuration = v; return this; }
    public Builder consolidationPolicy(@Nullable String v) { consolidationPolicy = v; return this; }
    /** {@code consolidateAfter}; {@link ScenarioProvisioner#NEVER} for {@code Never}. */
    public Builder consolidateAfter(@Nullable Duration v) { consolidateAfter = v; return this; }
    public Builder budgets(List<Budget> v) { budgets = Objects.requireNonNull(v, "budgets"); return this; }
    /** {@code expireAfter}; {@link ScenarioProvisioner#NEVER} for {@code Never}. */
    public Builder expireAfter(@Nullable Duration v) { expireAfter = v; return this; }
    /** {@code terminationGracePeriod}; {@code null}: unset. */
    public Builder terminationGracePeriod(@Nullable Duration v) { terminationGracePeriod = v; return this; }

    public ScenarioProvisioner build() {
      return new ScenarioProvisioner(batchIdleDuration, batchMaxDuration, consolidationPolicy, consolidateAfter,
          budgets, expireAfter, terminationGracePeriod);
    }
  }
}
