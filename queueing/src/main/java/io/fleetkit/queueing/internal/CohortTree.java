package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.ResourceGroup;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Builds the cohort tree of an engine: declared {@link Cohort}s with their quotas and parents, implicit roots for
 * names that are referenced but not declared, a refusal of cycles (Kueue marks the queues of a cycle inactive; an
 * engine with one is refused when built), and the subtree quotas summed bottom-up (Kueue's
 * {@code updateCohortResourceNode}).
 */
final class CohortTree {
  private CohortTree() {}

  static void build(List<Cohort> declared, FlavorResources index, Map<String, CohortState> out) {
    for (Cohort c : declared) {
      if (out.containsKey(c.name())) {
        throw new IllegalArgumentException("admission engine: Cohort " + c.name() + " added twice");
      }
      CohortState state = new CohortState(c.name(), index.size());
      state.weightMilli = c.fairSharingWeight().milliValue();
      for (ResourceGroup g : c.resourceGroups()) {
        for (FlavorQuotas fq : g.flavors()) {
          for (FlavorResourceQuota q : fq.resources()) {
            int fr = index.of(fq.name(), q.name());
            state.nominal[fr] = q.nominalQuota().milliValue();
            Quantity bl = q.borrowingLimit();
            state.borrowingLimit[fr] = bl == null ? CqState.NO_LIMIT : bl.milliValue();
            Quantity ll = q.lendingLimit();
            state.lendingLimit[fr] = ll == null ? CqState.NO_LIMIT : ll.milliValue();
          }
        }
      }
      out.put(c.name(), state);
    }
    for (Cohort c : declared) {
      String parentName = c.parent();
      if (parentName == null) {
        continue;
      }
      CohortState parent = out.computeIfAbsent(
          parentName, n -> new CohortState(n, index.size()));
      CohortState child = out.get(c.name());
      child.parent = parent;
      parent.children.add(child);
    }
    for (Cohort c : declared) {
      Set<String> seen = new HashSet<>();
      List<String> path = new ArrayList<>();
      for (CohortState node = out.get(c.name()); node != null; node = node.parent) {
        path.add(node.name);
        if (!seen.add(node.name)) {
          throw new IllegalArgumentException("Cohort " + c.name() + ": spec.parentName forms a cycle "
              + String.join(" -> ", path) + " (Kueue leaves the ClusterQueues of such a tree inactive)");
        }
      }
    }
  }

  /** Sums every tree's quotas bottom-up; call once every ClusterQueue is a member of its cohort. */
  static void sumQuotas(Collection<CohortState> all) {
    for (CohortState c : all) {
      if (c.parent == null) {
        sum(c);
      }
    }
  }

  private static void sum(CohortState c) {
    System.arraycopy(c.nominal, 0, c.quota, 0, c.quota.length);
    for (CohortState child : c.children) {
      sum(child);
      for (int fr = 0; fr < c.quota.length; fr++) {
        c.quota[fr] = CqState.saturatedAdd(c.quota[fr], child.quota[fr] - child.localQuota(fr));
      }
    }
    for (CqState m : c.members) {
      for (int fr = 0; fr < c.quota.length; fr++) {
        if (m.covered[fr]) {
          long lendable = m.nominal[fr] - m.guaranteed[fr];
          c.quota[fr] = CqState.saturatedAdd(c.quota[fr], lendable);
        }
      }
    }
  }

  static boolean hasOwnQuota(CohortState c) {
    for (long n : c.nominal) {
      if (n != 0) {
        return true;
      }
    }
    for (int fr = 0; fr < c.borrowingLimit.length; fr++) {
      if (c.borrowingLimit[fr] != CqState.NO_LIMIT || c.lendingLimit[fr] != CqState.NO_LIMIT) {
        return true;
      }
    }
    return false;
  }
}
