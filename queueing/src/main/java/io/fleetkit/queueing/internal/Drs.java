package io.fleetkit.queueing.internal;

import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The dominant resource share of a ClusterQueue or a Cohort (Kueue's {@code DRS}, {@code
 * pkg/cache/scheduler/fair_sharing.go}), kept precise so that two shares compare as Kueue compares them.
 *
 * @param unweightedRatio the largest {@code borrowed_r * 1000 / lendable_r} over resources (0 when not borrowing)
 * @param weightMilli the node's fair sharing weight in milli-units
 * @param dominantResource the resource that gave the ratio (alphabetically first of equals), {@code null} for none
 * @param borrowedFrs the flavor-resources the node uses above its subtree quota, ascending
 */
record Drs(double unweightedRatio, long weightMilli, @Nullable String dominantResource, int[] borrowedFrs) {
  /** A share below every other, the start of a search for the highest (Kueue's {@code NegativeDRS}). */
  static final Drs NEGATIVE = new Drs(-1, 1000, null, new int[0]);

  /** Whether the node uses more than its subtree quota of some flavor-resource (Kueue's {@code IsBorrowing}). */
  boolean borrowing() {
    return borrowedFrs.length > 0;
  }

  /** Kueue's {@code IsBorrowingOn}: the node borrows a flavor-resource that {@code frs} requests ({@code values}). */
  boolean borrowingOn(int[] frs, long[] values) {
    for (int i = 0; i < frs.length; i++) {
      if (values[i] > 0 && Arrays.binarySearch(borrowedFrs, frs[i]) >= 0) {
        return true;
      }
    }
    return false;
  }

  /** The ratio divided by the weight: 0 without borrowing, infinite for a weight of 0 (Kueue's precise share). */
  double weightedShare() {
    if (unweightedRatio == 0) {
      return 0;
    }
    if (weightMilli == 0) {
      return Double.POSITIVE_INFINITY;
    }
    return unweightedRatio * 1000 / weightMilli;
  }

  private boolean zeroWeightBorrows() {
    return weightMilli == 0 && unweightedRatio != 0;
  }

  /**
   * Kueue's {@code roundedWeightedShare}: the weighted share rounded up, {@link Long#MAX_VALUE} when a node of weight
   * 0 borrows.
   */
  long roundedUp() {
    return zeroWeightBorrows() ? Long.MAX_VALUE : (long) Math.ceil(weightedShare());
  }

  /**
   * Kueue's {@code CompareDRS}: a lower share is preferred for admission, a higher one for preemption; two nodes of
   * weight 0 that borrow compare by their ratios, and rank above every other node.
   */
  static int compare(Drs a, Drs b) {
    boolean az = a.zeroWeightBorrows();
    boolean bz = b.zeroWeightBorrows();
    if (az && bz) {
      return Double.compare(a.unweightedRatio, b.unweightedRatio);
    }
    if (az != bz) {
      return az ? 1 : -1;
    }
    return Double.compare(a.weightedShare(), b.weightedShare());
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Drs d && d.unweightedRatio == unweightedRatio && d.weightMilli == weightMilli
        && java.util.Objects.equals(d.dominantResource, dominantResource) && Arrays.equals(d.borrowedFrs, borrowedFrs);
  }

  @Override
  public int hashCode() {
    return java.util.Objects.hash(unweightedRatio, weightMilli, dominantResource, Arrays.hashCode(borrowedFrs));
  }

  @Override
  public String toString() {
    return "Drs[" + weightedShare() + " on " + dominantResource + "]";
  }
}
