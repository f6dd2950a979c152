package io.fleetkit.queueing.internal;

import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's {@code PodSetReducer} ({@code pkg/scheduler/flavorassigner/podset_reducer.go}): walks the pod sets' counts
 * down from their full counts towards their minimum counts together, each pod set by the same fraction of its own
 * reduction, and finds by binary search the largest counts that a test accepts.
 */
public final class PodSetReducer {
  private final int[] fullCounts;
  private final int[] deltas;
  private final long totalDelta;

  /**
   * @param fullCounts every pod set's count
   * @param minCounts every pod set's minimum count (its count when it cannot be reduced)
   */
  public PodSetReducer(int[] fullCounts, int[] minCounts) {
    this.fullCounts = fullCounts.clone();
    this.deltas = new int[fullCounts.length];
    long total = 0;
    for (int i = 0; i < fullCounts.length; i++) {
      deltas[i] = fullCounts[i] - minCounts[i];
      total += deltas[i];
    }
    this.totalDelta = total;
  }

  /** The counts at step {@code step} of {@code totalDelta}: each full count less its reduction times the fraction. */
  int[] countsAt(long step) {
    int[] out = new int[deltas.length];
    for (int i = 0; i < deltas.length; i++) {
      out[i] = fullCounts[i] - (int) (deltas[i] * step / totalDelta);
    }
    return out;
  }

  /**
   * The answer of {@code fits} for the largest counts it accepts (the first step of the reduction that fits; as in
   * Kueue, the search assumes that fewer pods fit whenever more do), or {@code null} if no pod set can be reduced or
   * not even the minimum counts fit.
   *
   * @param fits the answer for the given counts, or {@code null} if they do not fit
   */
  public <R> @Nullable R search(Function<int[], @Nullable R> fits) {
    if (totalDelta == 0) {
      return null;
    }
    // sort.Search over [0, totalDelta]: the smallest step that fits
    long lo = 0;
    long hi = totalDelta + 1;
    R found = null;
    long foundAt = -1;
    while (lo < hi) {
      long mid = (lo + hi) >>> 1;
      R r = fits.apply(countsAt(mid));
      if (r != null) {
        found = r;
        foundAt = mid;
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return foundAt == lo ? found : null;
  }
}
