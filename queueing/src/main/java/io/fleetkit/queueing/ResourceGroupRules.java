package io.fleetkit.queueing;

import io.fleetkit.api.Violations;
import io.fleetkit.api.resource.Quantity;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Kueue's webhook rules for the resource groups of ClusterQueues and Cohorts ({@code validateResourceGroups}): every
 * flavor lists exactly the group's covered resources in order (each a label key), a resource or flavor appears in at most one group,
 * quotas are not negative, limits need somewhere to borrow from or lend to, and (for ClusterQueues) a lending limit
 * does not exceed the nominal quota; at most 256 flavors and 256 covered resources in all, and 512 quotas in a
 * group.
 */
final class ResourceGroupRules {
  /** Kueue's most flavors across a queue's resource groups. */
  static final int MAX_FLAVORS = 256;
  /** Kueue's most covered resources across a queue's resource groups. */
  static final int MAX_COVERED = 256;
  /** Kueue's most flavor-resource quotas in one resource group. */
  static final int MAX_GROUP_QUOTAS = 512;
  private ResourceGroupRules() {}

  /**
   * @param hasParent whether the object has a cohort (a ClusterQueue) or a parent (a Cohort)
   * @param parentField how the parent is called in the messages: {@code cohort} or {@code parent}
   * @param lendingWithinNominal whether a lending limit must not exceed the nominal quota (ClusterQueues only)
   */
  static void check(
      Violations v, List<ResourceGroup> groups, boolean hasParent, String parentField, boolean lendingWithinNominal) {
    checkSizes(v, groups);
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
        v.qualifiedName(gp + ".coveredResources[" + r + "]", res);
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
        if (flavor.resources().size() != group.coveredResources().size()) {
          v.add(fp + ".resources", "must list as many resources as coveredResources "
              + group.coveredResources() + ", in its order", flavor.resources().size());
        }
        for (int r = 0; r < flavor.resources().size(); r++) {
          FlavorResourceQuota q = flavor.resources().get(r);
          String rp = fp + ".resources[" + r + "]";
          if (r < group.coveredResources().size() && !q.name().equals(group.coveredResources().get(r))) {
            v.add(rp + ".name", "must match the name in coveredResources (" + group.coveredResources().get(r)
                + ")", q.name());
          }
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

  /** Kueue's limits on a queue's size: 256 flavors and 256 covered resources in all, 512 quotas in a group. */
  private static void checkSizes(Violations v, List<ResourceGroup> groups) {
    int flavors = 0;
    int covered = 0;
    for (int g = 0; g < groups.size(); g++) {
      ResourceGroup group = groups.get(g);
      flavors += group.flavors().size();
      covered += group.coveredResources().size();
      int quotas = 0;
      for (FlavorQuotas f : group.flavors()) {
        quotas += f.resources().size();
      }
      if (quotas > MAX_GROUP_QUOTAS) {
        v.add("spec.resourceGroups[" + g + "]", "number of flavor-resource combinations in a resourceGroup must be"
            + " <= " + MAX_GROUP_QUOTAS, quotas);
      }
    }
    if (flavors > MAX_FLAVORS) {
      v.add("spec.resourceGroups", "total number of flavors across all resourceGroups must be <= " + MAX_FLAVORS,
          flavors);
    }
    if (covered > MAX_COVERED) {
      v.add("spec.resourceGroups", "total number of covered resources across all resourceGroups must be <= "
          + MAX_COVERED, covered);
    }
  }
}
