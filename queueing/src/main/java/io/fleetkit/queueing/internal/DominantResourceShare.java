package io.fleetkit.queueing.internal;

import java.util.Arrays;

/**
 * Kueue's dominant resource share of a node of the cohort tree ({@code pkg/cache/scheduler/fair_sharing.go}), for a
 * ClusterQueue and for a Cohort alike:
 *
 * <pre>
 * borrowed_r = Σ_flavors max(0, usage_fr + delta_fr - subtreeQuota_fr)   (a ClusterQueue's subtree quota: its nominal)
 * lendable_r = Σ_flavors potentialAvailable(parent, fr)                    (what the parent could give the node)
 * ratio      = max_r borrowed_r * 1000 / lendable_r                        (resources with lendable_r = 0 left out)
 * share      = ratio / weight                                              (0 at a root or without borrowing)
 * </pre>
 *
 * In a flat cohort the parent is the root and {@code lendable_r} the cohort's whole quota of {@code r}; in a tree it is
 * what the parent's own quota, its lending ancestors and their borrowing limits could give the node.
 */
final class DominantResourceShare {
  private DominantResourceShare() {}

  /** The share of {@code cq} if its usage changed by {@code sign × values} on {@code frs} (ascending). */
  static Drs of(CqState cq, FlavorResources index, int[] frs, long[] values, int sign) {
    CohortState cohort = cq.cohort;
    if (cohort == null) {
      return new Drs(0, cq.weightMilli, null, new int[0]);
    }
    long[] borrowed = new long[index.resourceCount()];
    int[] borrowedFrs = new int[cq.usage.length];
    int n = 0;
    int j = 0;
    for (int fr = 0; fr < cq.usage.length; fr++) {
      long delta = 0;
      while (j < frs.length && frs[j] < fr) {
        j++;
      }
      if (j < frs.length && frs[j] == fr) {
        delta = sign * values[j];
      }
      if (!cq.covered[fr]) {
        continue;
      }
      long b = cq.usage[fr] + delta - cq.nominal[fr];
      if (b > 0) {
        borrowed[index.resourceIndex(fr)] += b;
        borrowedFrs[n++] = fr;
      }
    }
    return share(borrowed, Arrays.copyOf(borrowedFrs, n), cohort, cq.weightMilli, index);
  }

  static Drs of(CqState cq, FlavorResources index) {
    return of(cq, index, new int[0], new long[0], 1);
  }

  /** The share of a cohort: what its subtree uses above its subtree quota, over what its parent could lend it. */
  static Drs of(CohortState cohort, FlavorResources index) {
    CohortState parent = cohort.parent;
    if (parent == null) {
      return new Drs(0, cohort.weightMilli, null, new int[0]);
    }
    long[] borrowed = new long[index.resourceCount()];
    int[] borrowedFrs = new int[cohort.usage.length];
    int n = 0;
    for (int fr = 0; fr < cohort.usage.length; fr++) {
      long b = cohort.usage[fr] - cohort.quota[fr];
      if (b > 0) {
        borrowed[index.resourceIndex(fr)] += b;
        borrowedFrs[n++] = fr;
      }
    }
    return share(borrowed, Arrays.copyOf(borrowedFrs, n), parent, cohort.weightMilli, index);
  }

  private static Drs share(long[] borrowed, int[] borrowedFrs, CohortState parent, long weightMilli,
      FlavorResources index) {
    if (borrowedFrs.length == 0) {
      return new Drs(0, weightMilli, null, borrowedFrs);
    }
    long[] lendable = new long[index.resourceCount()];
    for (int fr = 0; fr < index.size(); fr++) {
      int r = index.resourceIndex(fr);
      lendable[r] = CqState.saturatedAdd(lendable[r], parent.potentialAvailable(fr));
    }
    double ratio = 0;
    String dominant = null;
    for (int r = 0; r < borrowed.length; r++) {
      if (borrowed[r] > 0 && lendable[r] > 0) {
        double x = (double) borrowed[r] * 1000.0 / (double) lendable[r];
        String name = index.resourceName(r);
        if (x > ratio || (x == ratio && dominant != null && name.compareTo(dominant) < 0)) {
          ratio = x;
          dominant = name;
        }
      }
    }
    return new Drs(ratio, weightMilli, dominant, borrowedFrs);
  }
}
