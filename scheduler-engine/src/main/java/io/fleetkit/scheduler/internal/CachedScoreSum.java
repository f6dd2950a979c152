package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * The cycle's Score plugins that give a {@link TableScore#scoreKey key} and have no NormalizeScore (the members), as
 * one weighted sum per node kept across cycles: a {@link ScoreCache} under the members' joint key holds, per node,
 * {@code sum(weight * score)} over the members. A cycle then reads one kept value per node straight into the totals,
 * instead of one per member into its buffer and a weighing pass over the buffers afterwards. The sum is what kube's
 * {@code RunScorePlugins} adds for those plugins (they are not normalised, so each node's sum depends on that node
 * alone); the other plugins are scored, normalised and weighed onto it as before.
 *
 * <p>Nodes whose sum is not kept are scored by every member ({@link TableScore#scoreAll}); when a member throws or
 * gives a score outside [{@link ScorePlugin#MIN_NODE_SCORE}, {@link ScorePlugin#MAX_NODE_SCORE}], {@link #sum}
 * reports it and keeps nothing, so that the caller runs the cycle the plugin-by-plugin way, which reports the error
 * as kube does. Confined to the scheduling thread.
 */
final class CachedScoreSum {
  private final ScoreCache cache = new ScoreCache();
  /** This cycle's members, ascending plugin indices, the first {@link #count}. */
  private int[] members = new int[0];
  private int count;
  /** The joint key: per member, its index, its key's length and its key. */
  private long[] key = new long[0];
  private int[] missPos = new int[0];
  private int[] missNodes = new int[0];
  private long[] missOut = new long[0];
  private long[] missSum = new long[0];
  /** The highest total the last {@link #sum} wrote. */
  private final long[] max = new long[1];

  /**
   * Picks this cycle's members among the plugins not skipped ({@code skip}) and marks them in {@code memberOut};
   * returns how many there are. A plugin whose key throws is not a member (the plugin-by-plugin path handles it).
   */
  int prepare(TableScore[] ts, boolean[] normalizes, boolean @Nullable [] skip, CycleState state, PodInfo pod,
      boolean[] memberOut) {
    if (members.length < ts.length) {
      members = new int[ts.length];
    }
    count = 0;
    int keyLength = 0;
    long[][] keys = null;
    for (int j = 0; j < ts.length; j++) {
      memberOut[j] = false;
      if (ts[j] == null || normalizes[j] || (skip != null && skip[j])) {
        continue;
      }
      long[] k;
      try {
        k = ts[j].scoreKey(state, pod);
      } catch (RuntimeException e) {
        k = null;
      }
      if (k == null) {
        continue;
      }
      if (keys == null) {
        keys = new long[ts.length][];
      }
      keys[j] = k;
      members[count++] = j;
      memberOut[j] = true;
      keyLength += 2 + k.length;
    }
    if (count == 0) {
      return 0;
    }
    if (key.length != keyLength) {
      key = new long[keyLength];
    }
    int at = 0;
    for (int m = 0; m < count; m++) {
      int j = members[m];
      long[] k = keys[j];
      key[at++] = j;
      key[at++] = k.length;
      System.arraycopy(k, 0, key, at, k.length);
      at += k.length;
    }
    return count;
  }

  /**
   * After {@link #prepare} found members: {@code totals[pos]} = the members' weighted sum on node
   * {@code nodes[pos]}, plus {@code offset}, for {@code pos} in {@code [0, k)} (the kept sums do not include the
   * offset). False when a member threw or gave a score out of range on a node it was asked for: {@code totals} then
   * holds nothing meaningful and the cache is as before.
   */
  boolean sum(TableScore[] ts, long[] weights, CycleState state, PodInfo pod, NodeTable table, int[] nodes, int k,
      long[] totals, long offset) {
    if (missPos.length < k) {
      int len = Math.max(k, missPos.length * 2);
      missPos = new int[len];
      missNodes = new int[len];
      missOut = new long[len];
      missSum = new long[len];
    }
    ScoreCache.Slot slot = cache.slot(key, table);
    max[0] = Long.MIN_VALUE;
    int m = slot.reuse(table, nodes, 0, k, totals, missPos, missNodes, offset, max);
    if (m == 0) {
      return true;
    }
    long[] sums = missSum;
    long[] out = missOut;
    Arrays.fill(sums, 0, m, 0L);
    for (int i = 0; i < count; i++) {
      int j = members[i];
      try {
        ts[j].scoreAll(state, pod, table, missNodes, 0, m, out);
      } catch (RuntimeException e) {
        return false;
      }
      long w = weights[j];
      long signs = 0;
      for (int x = 0; x < m; x++) {
        long v = out[x];
        sums[x] += v * w;
        signs |= (v - ScorePlugin.MIN_NODE_SCORE) | (ScorePlugin.MAX_NODE_SCORE - v);
      }
      if (signs < 0) {
        return false;
      }
    }
    slot.keep(table, 0, m, missPos, missNodes, sums, totals, offset, max);
    return true;
  }

  /** After {@link #sum} returned true: the highest of the totals it wrote. */
  long max() {
    return max[0];
  }
}
