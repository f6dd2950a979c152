package io.fleetkit.queueing.internal;

/**
 * Kueue's dominant resource share ({@code pkg/cache/fair_sharing.go}):
 *
 * <pre>
 * borrowed_r = Σ_flavors max(0, usage_fr + delta_fr - nominal_fr)
 * ratio      = max_r borrowed_r * 1000 / lendable_r      (lendable_r: what the cohort can lend of r, over flavors)
 * share      = ratio * 1000 / weight_milli               (0 when not borrowing; Integer.MAX_VALUE with weight 0)
 * </pre>
 */
final class DominantResourceShare {
  private DominantResourceShare() {}

  /** The share of {@code cq} if its usage changed by {@code sign × values} on {@code frs}. */
  static long of(CqState cq, FlavorResources index, int[] frs, long[] values, int sign) {
    CohortState cohort = cq.cohort;
    if (cohort == null) {
      return 0;
    }
    long[] borrowed = new long[index.resourceCount()];
    boolean any = false;
    int j = 0;
    // frs is sorted ascending (the assigner and admitted workloads build it in index order).
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
        any = true;
      }
    }
    if (!any) {
      return 0;
    }
    if (cq.weightMilli == 0) {
      return Integer.MAX_VALUE;
    }
    long drs = -1;
    for (int r = 0; r < borrowed.length; r++) {
      long lendable = cohort.lendableByResource[r];
      if (borrowed[r] > 0 && lendable > 0) {
        drs = Math.max(drs, borrowed[r] * 1000 / lendable);
      }
    }
    return drs * 1000 / cq.weightMilli;
  }

  static long of(CqState cq, FlavorResources index) {
    return of(cq, index, new int[0], new long[0], 1);
  }
}
