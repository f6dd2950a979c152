package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Kueue's webhook rules for the resource groups of ClusterQueues and Cohorts ({@code validateResourceGroups}): every
 * flavor lists exactly the group's covered resources in order, a resource or flavor appears in at most one group,
 * quotas are not negative, limits need somewhere to borrow from or lend to, and (for ClusterQueues) a lending limit
 * does not exceed the nominal quota.
 */
final class ResourceGroupRules {
  private ResourceGroupRules() {}

  /**
   * @param hasParent whether the object has a cohort (a ClusterQueue) or a parent (a Cohort)
   * @param parentField how the parent is called in the messages: {@code cohort} or {@code parent}
   * @param lendingWithinNominal whether a lending limit must not exceed the nominal quota (ClusterQueues only)
   */
  static void check(
      Violations v, List<ResourceGroup> groups, boolean hasParent, String parentField, boolean lendingWithinNominal) {
    Set<String> seenResources = new HashSet<>();
    Set<String> seenFlavors = new HashSet<>();
    for (int g = 0; g < groups.size(); g++) {
      ResourceGroup group = groups.get(g);
      String gp = "spec.resourceGroups[" + g + "]";
      if (group.coveredResources().isEmpty()) {
        v.required(gp + ".coveredResources");
      }
      if (group.flavors().isEmpty()) {
        v.required(gp + ".flavors");
      }
      for (int r = 0; r < group.coveredResources().size(); r++) {
        String res = group.coveredResources().get(r);
        if (!seenResources.add(res)) {
          v.add(gp + ".coveredResources[" + r + "]", "must be covered by only one resource group", res);
        }
      }
      for (int f = 0; f < group.flavors().size(); f++) {
        FlavorQuotas flavor = group.flavors().get(f);
        String fp = gp + ".flavors[" + f + "]";
        v.dnsSubdomain(fp + ".name", flavor.name());
        if (!seenFlavors.add(flavor.name())) {
          v.add(fp + ".name", "must appear in only one resource group", flavor.name());
        }
        List<String> names = flavor.resources().stream().map(FlavorResourceQuota::name).toList();
        if (!names.equals(group.coveredResources())) {
          v.add(fp + ".resources", "must list the covered resources " + group.coveredResources() + " in order",
              names);
        }
        for (int r = 0; r < flavor.resources().size(); r++) {
          FlavorResourceQuota q = flavor.resources().get(r);
          String rp = fp + ".resources[" + r + "]";
          v.nonNegative(rp + ".nominalQuota", q.nominalQuota());
          if (q.borrowingLimit() != null) {
            v.nonNegative(rp + ".borrowingLimit", q.borrowingLimit());
            if (!hasParent) {
              v.add(rp + ".borrowingLimit", "must be nil when " + parentField + " is empty", q.borrowingLimit());
            }
          }
          Quantity lending = q.lendingLimit();
          if (lending != null) {
            v.nonNegative(rp + ".lendingLimit", lending);
            if (lendingWithinNominal && lending.compareTo(q.nominalQuota()) > 0) {
              v.add(rp + ".lendingLimit", "must be less than or equal to the nominalQuota " + q.nominalQuota(),
                  lending);
            }
            if (!hasParent) {
              v.add(rp + ".lendingLimit", "must be nil when " + parentField + " is empty", lending);
            }
          }
        }
      }
    }
  }
}
