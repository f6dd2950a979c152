package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A node of Kueue's cohort tree (Kueue {@code Cohort}, hierarchical cohorts): ClusterQueues name it as their cohort,
 * other Cohorts as their parent. A cohort lends to its subtree what its own resource groups hold plus what its
 * children lend it (each child keeps what its lending limit holds back), and borrows from its parent within its
 * borrowing limit. A cohort that ClusterQueues or Cohorts name without declaring it is a root without quota.
 *
 * <p>Validation follows Kueue's webhook: the resource-group rules of {@link ClusterQueue}, except that a lending limit
 * may exceed the nominal quota (it bounds what the whole subtree lends), and limits need a parent.
 *
 * @param name the cohort's name, a DNS subdomain
 * @param parent the parent cohort, or {@code null} for a root
 * @param resourceGroups the cohort's own quotas, shared by its subtree
 * @param fairSharingWeight the cohort's weight in fair sharing against its siblings (Kueue's {@code
 *     spec.fairSharing.weight}, default 1): its dominant resource share is divided by it
 */
public record Cohort(String name, @Nullable String parent, List<ResourceGroup> resourceGroups,
    Quantity fairSharingWeight) {
  public static final String KIND = "Cohort";
  private static final Quantity DEFAULT_WEIGHT = Quantity.of(1);

  public Cohort {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(fairSharingWeight, "fairSharingWeight");
    resourceGroups = List.copyOf(Objects.requireNonNull(resourceGroups, "resourceGroups"));
    Violations v = new Violations(KIND, "", name);
    v.dnsSubdomain("metadata.name", name);
    if (parent != null) {
      v.dnsSubdomain("spec.parentName", parent);
      if (parent.equals(name)) {
        v.add("spec.parentName", "must not be the cohort itself", parent);
      }
    }
    ResourceGroupRules.check(v, resourceGroups, parent != null, "parent", false);
    v.nonNegative("spec.fairSharing.weight", fairSharingWeight);
    v.throwIfAny();
  }

  /** A cohort of fair sharing weight 1. */
  public Cohort(String name, @Nullable String parent, List<ResourceGroup> resourceGroups) {
    this(name, parent, resourceGroups, DEFAULT_WEIGHT);
  }

  /** A cohort without quota of its own under {@code parent} ({@code null} for a root). */
  public static Cohort of(String name, @Nullable String parent) {
    return new Cohort(name, parent, List.of());
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** Mutable builder; not thread-safe. Defaults: a root, no quota, fair sharing weight 1. */
  public static final class Builder {
    private final String name;
    private @Nullable String parent;
    private final List<ResourceGroup> resourceGroups = new ArrayList<>();
    private Quantity fairSharingWeight = DEFAULT_WEIGHT;

    private Builder(String name) {
      this.name = Objects.requireNonNull(name, "name");
    }

    public Builder parent(String parent) {
      this.parent = Objects.requireNonNull(parent, "parent");
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

    /** Kueue's {@code spec.fairSharing.weight}; 0 makes the cohort the first to lose quota it borrows. */
    public Builder fairSharingWeight(Quantity weight) {
      this.fairSharingWeight = Objects.requireNonNull(weight, "weight");
      return this;
    }

    /**
     * @throws io.fleetkit.api.ValidationException if the cohort breaks a rule of the class documentation
     */
    public Cohort build() {
      return new Cohort(name, parent, resourceGroups, fairSharingWeight);
    }
  }
}
