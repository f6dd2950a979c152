package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.ScorePlugin;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Small helpers shared by the GPU policies. */
final class GpuPolicies {
  private GpuPolicies() {}

  /** The pod's GPU demand written by {@link GpuFilterPlugin}'s PreFilter; {@link GpuDemand#NONE} for CPU-only pods. */
  static GpuDemand demand(CycleState state) {
    GpuDemand d = state.read(GpuFilterPlugin.DEMAND);
    return d == null ? GpuDemand.NONE : d;
  }

  static long clamp(long v) {
    return Math.max(ScorePlugin.MIN_NODE_SCORE, Math.min(ScorePlugin.MAX_NODE_SCORE, v));
  }

  /** Min-max normalisation of {@code scores[0..n)} into [0, 100]; all 0 when they are equal. */
  static void minMax(long[] scores, int n) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int k = 0; k < n; k++) {
      min = Math.min(min, scores[k]);
      max = Math.max(max, scores[k]);
    }
    for (int k = 0; k < n; k++) {
      scores[k] = max == min ? 0 : (scores[k] - min) * ScorePlugin.MAX_NODE_SCORE / (max - min);
    }
  }

  /**
   * Keeps only the best score's order exact, breaking its ties by a fixed seeded node order (as the FGD paper's
   * simulator breaks ties by node order): the first tied node in that order scores 100, the other tied nodes 99,
   * every other node its score scaled into 0..98. A fixed order, unlike the framework's per-pod random choice among
   * equals, makes equal nodes fill one after another, which is what FGD's integer score relies on.
   */
  static void tieBreakByNodeOrder(long[] scores, GpuScorer.Candidates nodes) {
    int n = nodes.size();
    long max = Long.MIN_VALUE;
    for (int k = 0; k < n; k++) {
      max = Math.max(max, scores[k]);
    }
    int first = -1;
    long firstKey = 0;
    for (int k = 0; k < n; k++) {
      if (scores[k] == max) {
        long key = nodes.order(k);
        if (first < 0 || key < firstKey) {
          first = k;
          firstKey = key;
        }
      }
    }
    for (int k = 0; k < n; k++) {
      scores[k] = k == first ? 100 : scores[k] == max ? 99 : clamp(scores[k]) * 98 / 100;
    }
  }

  /**
   * Orders the candidates by {@code primary} (lower first; infinite: unusable), the ones within {@code tie} of the
   * lowest counting as tied; the tied ones by {@code key}, then {@code key2} (higher first), then the host's node
   * order. Normalised so that this order is exact at the top: the first node scores 100, the other tied nodes 99 down
   * to 50 by their place in the order, every other node 0..49 by its primary value (lower higher), 0 when infinite.
   */
  static void rankTied(GpuScorer.Candidates nodes, long[] scores, double[] primary, double tie, double[] key,
      double @Nullable [] key2) {
    int n = nodes.size();
    double lowest = Double.POSITIVE_INFINITY;
    for (int k = 0; k < n; k++) {
      lowest = Math.min(lowest, primary[k]);
    }
    List<Integer> tied = new ArrayList<>();
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    long[] order = new long[n];
    for (int k = 0; k < n; k++) {
      if (primary[k] <= lowest + tie) {
        tied.add(k);
        order[k] = nodes.order(k);
      } else if (primary[k] < Double.POSITIVE_INFINITY) {
        lo = Math.min(lo, primary[k]);
        hi = Math.max(hi, primary[k]);
      }
    }
    Comparator<Integer> c = Comparator.comparingDouble(k -> -key[k]);
    if (key2 != null) {
      c = c.thenComparingDouble(k -> -key2[k]);
    }
    tied.sort(c.thenComparingLong(k -> order[k]));
    for (int k = 0; k < n; k++) {
      scores[k] = primary[k] == Double.POSITIVE_INFINITY ? 0
          : hi == lo ? 49 : Math.round(49 * (hi - primary[k]) / (hi - lo));
    }
    for (int q = 0; q < tied.size(); q++) {
      scores[tied.get(q)] = q == 0 ? 100 : Math.max(50, 100 - q);
    }
  }

  /** The node's rank in the fixed seeded node order ties are broken by (lower first). */
  static long nodeOrder(long seed, NodeInfo node) {
    return mix(seed, node.name().hashCode(), 0x0DE5L);
  }

  /** A 64-bit mix (splitmix64's finaliser) of three values. */
  static long mix(long a, long b, long c) {
    long z = a * 0x9E3779B97F4A7C15L + b * 0xC2B2AE3D27D4EB4FL + c;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
