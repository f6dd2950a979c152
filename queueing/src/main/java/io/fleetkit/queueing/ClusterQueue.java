package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A cluster-scoped pool of quota (Kueue {@code ClusterQueue}). Validation follows Kueue's webhook: every flavor lists
 * exactly the group's covered resources in order, a resource or flavor appears in at most one group, quotas are not
 * negative, a lending limit does not exceed the nominal quota, and borrowing or lending limits need a cohort; a
 * flavor fungibility preference needs both of its policies {@code TRY_NEXT_FLAVOR} (Kueue's API rule), and the
 * namespace selector must be a valid label selector. A queue that covers {@code pods} counts every pod of a workload
 * as one {@code pods} unit (Kueue's implicit resource). A queue may name flavors the engine does not have yet: it is
 * then inactive ({@link AdmissionEngine#inactiveReason}).
 *
 * @param name the queue's name, a DNS subdomain
 * @param cohort the cohort whose members lend to each other, or {@code null} for none
 * @param resourceGroups the quotas
 * @param queueingStrategy how pending workloads are ordered and retried
 * @param preemption who may be preempted
 * @param flavorFungibility when the flavor assigner stops at a flavor
 * @param fairSharingWeight the weight in fair sharing (Kueue {@code fairSharing.weight}, default 1)
 * @param namespaceSelector which namespaces' workloads the queue admits, by the namespaces' labels (Kueue {@code
 *     namespaceSelector}); a workload in a namespace it does not match stays pending with Kueue's message
 *     "workload namespace doesn't match ClusterQueue selector". The builder's default is {@link
 *     LabelSelector#EVERYTHING}, every namespace (Kueue's {@code namespaceSelector: {}}; in Kueue's API an omitted
 *     selector admits no namespace)
 * @param admissionChecks the admission checks every workload of the queue must pass before it is admitted (Kueue's
 *     {@code spec.admissionChecks}); not together with {@code admissionChecksStrategy}
 * @param admissionChecksStrategy admission checks per flavor (Kueue's {@code spec.admissionChecksStrategy}): a
 *     workload needs a rule's check when its reservation uses one of the rule's flavors (every flavor if it lists
 *     none); every flavor listed must be one of the queue's
 * @param stopPolicy whether the queue admits workloads (Kueue's {@code spec.stopPolicy}, default {@link
 *     StopPolicy#NONE}); a stopped queue is inactive ({@link AdmissionEngine#clusterQueueActive})
 * @param admissionMode Kueue's {@code spec.admissionScope.admissionMode}, or {@code null} without an admission scope
 *     (as {@link AdmissionMode#NO_ADMISSION_FAIR_SHARING}): with {@link
 *     AdmissionMode#USAGE_BASED_ADMISSION_FAIR_SHARING}, on an engine with {@link AdmissionFairSharing}, the queue's
 *     pending workloads are ordered by their LocalQueues' usage first
 */
public record ClusterQueue(
    String name,
    @Nullable String cohort,
    List<ResourceGroup> resourceGroups,
    QueueingStrategy queueingStrategy,
    ClusterQueuePreemption preemption,
    FlavorFungibility flavorFungibility,
    Quantity fairSharingWeight,
    LabelSelector namespaceSelector,
    List<String> admissionChecks,
    List<AdmissionCheckStrategyRule> admissionChecksStrategy,
    StopPolicy stopPolicy,
    @Nullable AdmissionMode admissionMode) {
  public static final String KIND = "ClusterQueue";

  public ClusterQueue {
    Objects.requireNonNull(name, "name");
    resourceGroups = List.copyOf(Objects.requireNonNull(resourceGroups, "resourceGroups"));
    Objects.requireNonNull(queueingStrategy, "queueingStrategy");
    Objects.requireNonNull(preemption, "preemption");
    Objects.requireNonNull(flavorFungibility, "flavorFungibility");
    Objects.requireNonNull(fairSharingWeight, "fairSharingWeight");
    Objects.requireNonNull(namespaceSelector, "namespaceSelector");
    admissionChecks = List.copyOf(Objects.requireNonNull(admissionChecks, "admissionChecks"));
    admissionChecksStrategy = List.copyOf(Objects.requireNonNull(admissionChecksStrategy, "admissionChecksStrategy"));
    Objects.requireNonNull(stopPolicy, "stopPolicy");
    validate(name, cohort, resourceGroups, preemption, flavorFungibility, fairSharingWeight, namespaceSelector,
        admissionChecks, admissionChecksStrategy);
  }

  /** A queue without an admission scope. */
  public ClusterQueue(String name, @Nullable String cohort, List<ResourceGroup> resourceGroups,
      QueueingStrategy queueingStrategy, ClusterQueuePreemption preemption, FlavorFungibility flavorFungibility,
      Quantity fairSharingWeight, LabelSelector namespaceSelector, List<String> admissionChecks,
      List<AdmissionCheckStrategyRule> admissionChecksStrategy, StopPolicy stopPolicy) {
    this(name, cohort, resourceGroups, queueingStrategy, preemption, flavorFungibility, fairSharingWeight,
        namespaceSelector, admissionChecks, admissionChecksStrategy, stopPolicy, null);
  }

  /** A queue that is not stopped ({@link StopPolicy#NONE}). */
  public ClusterQueue(String name, @Nullable String cohort, List<ResourceGroup> resourceGroups,
      QueueingStrategy queueingStrategy, ClusterQueuePreemption preemption, FlavorFungibility flavorFungibility,
      Quantity fairSharingWeight, LabelSelector namespaceSelector, List<String> admissionChecks,
      List<AdmissionCheckStrategyRule> admissionChecksStrategy) {
    this(name, cohort, resourceGroups, queueingStrategy, preemption, flavorFungibility, fairSharingWeight,
        namespaceSelector, admissionChecks, admissionChecksStrategy, StopPolicy.NONE);
  }

  /** A queue without admission checks. */
  public ClusterQueue(String name, @Nullable String cohort, List<ResourceGroup> resourceGroups,
      QueueingStrategy queueingStrategy, ClusterQueuePreemption preemption, FlavorFungibility flavorFungibility,
      Quantity fairSharingWeight, LabelSelector namespaceSelector) {
    this(name, cohort, resourceGroups, queueingStrategy, preemption, flavorFungibility, fairSharingWeight,
        namespaceSelector, List.of(), List.of());
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  public Builder toBuilder() {
    Builder b = new Builder(name);
    b.cohort = cohort;
    b.resourceGroups.addAll(resourceGroups);
    b.queueingStrategy = queueingStrategy;
    b.preemption = preemption;
    b.flavorFungibility = flavorFungibility;
    b.fairSharingWeight = fairSharingWeight;
    b.namespaceSelector = namespaceSelector;
    b.admissionChecks.addAll(admissionChecks);
    b.admissionChecksStrategy.addAll(admissionChecksStrategy);
    b.stopPolicy = stopPolicy;
    b.admissionMode = admissionMode;
    return b;
  }

  /** This queue with {@code policy} as its stop policy. */
  public ClusterQueue withStopPolicy(StopPolicy policy) {
    return new ClusterQueue(name, cohort, resourceGroups, queueingStrategy, preemption, flavorFungibility,
        fairSharingWeight, namespaceSelector, admissionChecks, admissionChecksStrategy, policy, admissionMode);
  }

  private static void validate(
      String name,
      @Nullable String cohort,
      List<ResourceGroup> groups,
      ClusterQueuePreemption preemption,
      FlavorFungibility fungibility,
      Quantity weight,
      LabelSelector namespaceSelector,
      List<String> checks,
      List<AdmissionCheckStrategyRule> strategy) {
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    if (cohort != null) {
      v.dnsSubdomain("spec.cohort", cohort);
    }
    ResourceGroupRules.check(v, groups, cohort != null, "cohort", true);
    if (preemption.withinClusterQueue() == QueuePreemptionPolicy.ANY) {
      v.add("spec.preemption.withinClusterQueue", "supported values: \"Never\", \"LowerPriority\", "
          + "\"LowerOrNewerEqualPriority\"", "Any");
    }
    if (preemption.reclaimWithinCohort() == QueuePreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY) {
      v.add("spec.preemption.reclaimWithinCohort", "supported values: \"Never\", \"LowerPriority\", \"Any\"",
          "LowerOrNewerEqualPriority");
    }
    if (preemption.borrowWithinCohort().policy() != BorrowWithinCohort.Policy.NEVER
        && preemption.reclaimWithinCohort() == QueuePreemptionPolicy.NEVER) {
      v.add("spec.preemption", "reclaimWithinCohort=Never and borrowWithinCohort.Policy!=Never", "borrowWithinCohort");
    }
    if (fungibility.preference() != null
        && (fungibility.whenCanBorrow() != FlavorFungibility.WhenCanBorrow.TRY_NEXT_FLAVOR
            || fungibility.whenCanPreempt() != FlavorFungibility.WhenCanPreempt.TRY_NEXT_FLAVOR)) {
      v.add("spec.flavorFungibility.preference", "preference \"" + fungibility.preference().apiName()
          + "\" requires both whenCanBorrow and whenCanPreempt to be TryNextFlavor", fungibility.preference().apiName());
    }
    v.nonNegative("spec.fairSharing.weight", weight);
    v.labelSelector("spec.namespaceSelector", namespaceSelector);
    validateChecks(v, groups, checks, strategy);
    v.throwIfAny();
  }

  /**
   * Kueue's rules for a queue's admission checks: {@code spec.admissionChecks} and {@code spec.admissionChecksStrategy}
   * are not both set (its API rule), names are DNS subdomains and not repeated, and every flavor of a strategy rule is
   * one of the queue's flavors (its webhook: {@code supported values: ...}).
   */
  private static void validateChecks(Violations v, List<ResourceGroup> groups, List<String> checks,
      List<AdmissionCheckStrategyRule> strategy) {
    if (!checks.isEmpty() && !strategy.isEmpty()) {
      v.add("spec", "Either AdmissionChecks or AdmissionCheckStrategy can be set, but not both",
          "admissionChecks and admissionChecksStrategy");
    }
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < checks.size(); i++) {
      v.dnsSubdomain("spec.admissionChecks[" + i + "]", checks.get(i));
      if (!seen.add(checks.get(i))) {
        v.add("spec.admissionChecks[" + i + "]", Violations.DUPLICATE, checks.get(i));
      }
    }
    List<String> flavors = new ArrayList<>();
    for (ResourceGroup g : groups) {
      for (FlavorQuotas f : g.flavors()) {
        flavors.add(f.name());
      }
    }
    seen.clear();
    for (int i = 0; i < strategy.size(); i++) {
      String p = "spec.admissionChecksStrategy.admissionChecks[" + i + "]";
      AdmissionCheckStrategyRule r = strategy.get(i);
      v.dnsSubdomain(p + ".name", r.name());
      if (!seen.add(r.name())) {
        v.add(p + ".name", Violations.DUPLICATE, r.name());
      }
      for (int j = 0; j < r.onFlavors().size(); j++) {
        if (!flavors.contains(r.onFlavors().get(j))) {
          v.add(p + ".onFlavors[" + j + "]", "supported values: " + quoted(flavors), r.onFlavors().get(j));
        }
      }
    }
  }

  private static String quoted(List<String> values) {
    List<String> out = new ArrayList<>();
    for (String s : new java.util.TreeSet<>(values)) {
      out.add("\"" + s + "\"");
    }
    return String.join(", ", out);
  }

  /** The names of every admission check the queue refers to, in name order. */
  public java.util.SortedSet<String> admissionCheckNames() {
    java.util.SortedSet<String> out = new java.util.TreeSet<>(admissionChecks);
    for (AdmissionCheckStrategyRule r : admissionChecksStrategy) {
      out.add(r.name());
    }
    return out;
  }

  /** Every flavor name of every group, in group then flavor order. */
  public List<String> flavorNames() {
    List<String> out = new ArrayList<>();
    for (ResourceGroup g : resourceGroups) {
      for (FlavorQuotas f : g.flavors()) {
        out.add(f.name());
      }
    }
    return out;
  }

  /**
   * Mutable builder; not thread-safe. Defaults: no cohort, BestEffortFIFO, no preemption, Kueue's default flavor
   * fungibility, weight 1, every namespace, not stopped.
   */
  public static final class Builder {
    private final String name;
    private @Nullable String cohort;
    private final List<ResourceGroup> resourceGroups = new ArrayList<>();
    private QueueingStrategy queueingStrategy = QueueingStrategy.BEST_EFFORT_FIFO;
    private ClusterQueuePreemption preemption = ClusterQueuePreemption.NEVER;
    private FlavorFungibility flavorFungibility = FlavorFungibility.DEFAULT;
    private Quantity fairSharingWeight = Quantity.of(1);
    private LabelSelector namespaceSelector = LabelSelector.EVERYTHING;
    private final List<String> admissionChecks = new ArrayList<>();
    private final List<AdmissionCheckStrategyRule> admissionChecksStrategy = new ArrayList<>();
    private StopPolicy stopPolicy = StopPolicy.NONE;
    private @Nullable AdmissionMode admissionMode;
    private final Map<String, Boolean> set = new HashMap<>();

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    private void once(String property, @Nullable Object old) {
      if (set.put(property, Boolean.TRUE) != null) {
        throw new IllegalStateException(
            "cluster queue " + name + ": " + property + " already set to " + old);
      }
    }

    public Builder cohort(String cohort) {
      once("cohort", this.cohort);
      this.cohort = Objects.requireNonNull(cohort, "cohort");
      return this;
    }

    public Builder resourceGroup(ResourceGroup group) {
      resourceGroups.add(Objects.requireNonNull(group, "group"));
      return this;
    }

    /** Adds a resource group whose covered resources are the first flavor's resources. */
    public Builder resourceGroup(FlavorQuotas... flavors) {
      return resourceGroup(ResourceGroup.of(flavors));
    }

    public Builder queueingStrategy(QueueingStrategy strategy) {
      once("queueingStrategy", queueingStrategy);
      this.queueingStrategy = Objects.requireNonNull(strategy, "strategy");
      return this;
    }

    public Builder preemption(ClusterQueuePreemption preemption) {
      once("preemption", this.preemption);
      this.preemption = Objects.requireNonNull(preemption, "preemption");
      return this;
    }

    public Builder flavorFungibility(FlavorFungibility fungibility) {
      once("flavorFungibility", flavorFungibility);
      this.flavorFungibility = Objects.requireNonNull(fungibility, "fungibility");
      return this;
    }

    public Builder fairSharingWeight(Quantity weight) {
      once("fairSharingWeight", fairSharingWeight);
      this.fairSharingWeight = Objects.requireNonNull(weight, "weight");
      return this;
    }

    /** Which namespaces' workloads the queue admits, by their labels (default: every namespace). */
    public Builder namespaceSelector(LabelSelector selector) {
      once("namespaceSelector", namespaceSelector);
      this.namespaceSelector = Objects.requireNonNull(selector, "selector");
      return this;
    }

    /** Adds admission checks every workload of the queue must pass (Kueue's {@code spec.admissionChecks}). */
    public Builder admissionChecks(String... names) {
      admissionChecks.addAll(List.of(names));
      return this;
    }

    /** Adds admission check rules per flavor (Kueue's {@code spec.admissionChecksStrategy.admissionChecks}). */
    public Builder admissionCheckStrategy(AdmissionCheckStrategyRule... rules) {
      admissionChecksStrategy.addAll(List.of(rules));
      return this;
    }

    /** Whether the queue admits workloads (Kueue's {@code spec.stopPolicy}; default {@link StopPolicy#NONE}). */
    public Builder stopPolicy(StopPolicy policy) {
      once("stopPolicy", stopPolicy);
      this.stopPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /**
     * How the queue orders its pending workloads across its LocalQueues (Kueue's {@code
     * spec.admissionScope.admissionMode}; default: no admission scope).
     */
    public Builder admissionMode(AdmissionMode mode) {
      once("admissionMode", admissionMode);
      this.admissionMode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * @throws io.fleetkit.api.ValidationException if the queue breaks a rule of the class documentation
     */
    public ClusterQueue build() {
      return new ClusterQueue(
          name, cohort, resourceGroups, queueingStrategy, preemption, flavorFungibility, fairSharingWeight,
          namespaceSelector, admissionChecks, admissionChecksStrategy, stopPolicy, admissionMode);
    }
  }

  /** Whether the queue's admission mode is {@link AdmissionMode#USAGE_BASED_ADMISSION_FAIR_SHARING}. */
  public boolean usageBasedAdmissionFairSharing() {
    return admissionMode == AdmissionMode.USAGE_BASED_ADMISSION_FAIR_SHARING;
  }
}
