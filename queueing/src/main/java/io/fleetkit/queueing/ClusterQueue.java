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
 */
public record ClusterQueue(
    String name,
    @Nullable String cohort,
    List<ResourceGroup> resourceGroups,
    QueueingStrategy queueingStrategy,
    ClusterQueuePreemption preemption,
    FlavorFungibility flavorFungibility,
    Quantity fairSharingWeight,
    LabelSelector namespaceSelector) {
  public static final String KIND = "ClusterQueue";

  public ClusterQueue {
    Objects.requireNonNull(name, "name");
    resourceGroups = List.copyOf(Objects.requireNonNull(resourceGroups, "resourceGroups"));
    Objects.requireNonNull(queueingStrategy, "queueingStrategy");
    Objects.requireNonNull(preemption, "preemption");
    Objects.requireNonNull(flavorFungibility, "flavorFungibility");
    Objects.requireNonNull(fairSharingWeight, "fairSharingWeight");
    Objects.requireNonNull(namespaceSelector, "namespaceSelector");
    validate(name, cohort, resourceGroups, preemption, flavorFungibility, fairSharingWeight, namespaceSelector);
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
    return b;
  }

  private static void validate(
      String name,
      @Nullable String cohort,
      List<ResourceGroup> groups,
      ClusterQueuePreemption preemption,
      FlavorFungibility fungibility,
      Quantity weight,
      LabelSelector namespaceSelector) {
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
      v.add("spec.flavorFungibility.preference",
          "preference can only be set when both whenCanBorrow and whenCanPreempt are TryNextFlavor",
          fungibility.preference().apiName());
    }
    v.nonNegative("spec.fairSharing.weight", weight);
    v.labelSelector("spec.namespaceSelector", namespaceSelector);
    v.throwIfAny();
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
   * fungibility, weight 1, every namespace.
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

    /**
     * @throws io.fleetkit.api.ValidationException if the queue breaks a rule of the class documentation
     */
    public ClusterQueue build() {
      return new ClusterQueue(
          name, cohort, resourceGroups, queueingStrategy, preemption, flavorFungibility, fairSharingWeight,
          namespaceSelector);
    }
  }
}
