package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * One Score plugin's scores kept across cycles, for a plugin that offers a {@link TableScore#scoreKey key}: per key,
 * each node's last score and the {@link NodeTable#rowVersion row version} it was computed on. A cycle whose pod has
 * the key of an earlier one reads the score of every node whose row has not changed since, and asks the plugin only
 * for the others (the node bound to in between, nodes whose pods or labels changed): the same scores as computing
 * them all, since the key's contract says nothing else goes into them. Normalisation, weights and selection run on
 * the scores as before.
 *
 * <p>A few keys are kept at once (pods of a few shapes interleaved), the least recently used one giving way. The
 * scheduling thread picks the slot ({@link #slot}); the Score fan-out's threads then read and fill it on distinct
 * nodes, and the runner's hand-off orders one cycle's writes before the next cycle's reads.
 */
final class ScoreCache {
  /** How many keys are kept at once. */
  static final int KEYS = 4;

  private final Slot[] slots = new Slot[KEYS];
  private long clock;

  /**
   * The slot for {@code key} over the positions of {@code table}: the one that already holds the
   * key, else the least recently used one, emptied and given the key.
   */
  Slot slot(long[] key, NodeTable table) {
    int size = table.capacity();
    long now = ++clock;
    Slot victim = null;
    for (int i = 0; i < slots.length; i++) {
      Slot s = slots[i];
      if (s == null) {
        s = new Slot();
        slots[i] = s;
      }
      if (s.key != null && s.table == table && Arrays.equals(s.key, key)) {
        s.lastUsed = now;
        s.ensure(size);
        return s;
      }
      if (victim == null || s.lastUsed < victim.lastUsed) {
        victim = s;
      }
    }
    victim.adopt(key.clone(), table, size);
    victim.lastUsed = now;
    return victim;
  }

  /**
   * One key's scores, interleaved per node so that a check reads one stream: {@code kept[2 * node + 1]} is node's score,
   * valid while {@code kept[2 * node]} equals the row's current version.
   */
  static final class Slot {
    private long @Nullable [] key;
    private @Nullable NodeTable table;
    private long[] kept = new long[0];
    private long lastUsed;

    private void adopt(long[] newKey, NodeTable newTable, int size) {
      key = newKey;
      table = newTable;
      Arrays.fill(kept, 0L); // row versions are positive: 0 matches no row
      ensure(size);
    }

    private void ensure(int size) {
      if (kept.length < 2L * size) {
        int len = Math.max(size, (kept.length >> 1) + (kept.length >> 2));
        kept = Arrays.copyOf(kept, 2 * len);
      }
    }

    /**
     * {@code out[pos]} = the score of node {@code nodes[pos]} for each {@code pos} in {@code [from, to)}: kept ones
     * read back, the others computed by {@code plugin}'s {@link TableScore#scoreAll} over just those nodes and kept.
     * The scratch arrays are used in {@code [from, to)} only, so chunks of one cycle may run at once. An exception
     * from the plugin leaves the slot as it was for the nodes not yet kept. The engine runs the same three steps
     * itself ({@link #reuse}, the plugin, {@link #keep}), so that the plugin is called from the engine's own call site.
     */
    void scoreAll(TableScore plugin, CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to,
        long[] out, int[] missPos, int[] missNodes, long[] missOut) {
      int m = reuse(table, nodes, from, to, out, missPos, missNodes, 0, null);
      if (m == from) {
        return;
      }
      plugin.scoreAll(state, pod, table, missNodes, from, m, missOut);
      keep(table, from, m, missPos, missNodes, missOut, out, 0, null);
    }

    /**
     * The first step of {@link #scoreAll}: {@code out[pos]} = the kept score of node {@code nodes[pos]}, plus
     * {@code offset}, where its row has not changed; the other positions and nodes are listed in {@code missPos} and
     * {@code missNodes} from {@code from} on. Returns the end of that list (equal to {@code from} when every score was
     * kept). With {@code max} non-null, {@code max[0]} is raised to the highest value written (the caller's pass
     * that needs the highest total need not read them again).
     */
    int reuse(NodeTable table, int[] nodes, int from, int to, long[] out, int[] missPos, int[] missNodes,
        long offset, long @Nullable [] max) {
      long[] k = kept;
      int m = from;
      if (max == null) {
        for (int pos = from; pos < to; pos++) {
          int node = nodes[pos];
          if (k[2 * node] == table.rowVersion(node)) {
            out[pos] = k[2 * node + 1] + offset;
          } else {
            missPos[m] = pos;
            missNodes[m] = node;
            m++;
          }
        }
        return m;
      }
      long hi = max[0];
      for (int pos = from; pos < to; pos++) {
        int node = nodes[pos];
        if (k[2 * node] == table.rowVersion(node)) {
          long v = k[2 * node + 1] + offset;
          out[pos] = v;
          hi = Math.max(hi, v);
        } else {
          missPos[m] = pos;
          missNodes[m] = node;
          m++;
        }
      }
      max[0] = hi;
      return m;
    }

    /**
     * The last step of {@link #scoreAll}: the scores {@code missOut[from, m)} computed for the nodes {@link #reuse}
     * listed are kept and written, plus {@code offset}, to their positions of {@code out}; {@code max} as in
     * {@link #reuse}.
     */
    void keep(NodeTable table, int from, int m, int[] missPos, int[] missNodes, long[] missOut, long[] out,
        long offset, long @Nullable [] max) {
      long[] k = kept;
      long hi = max == null ? 0 : max[0];
      for (int i = from; i < m; i++) {
        int node = missNodes[i];
        long v = missOut[i];
        out[missPos[i]] = v + offset;
        hi = Math.max(hi, v + offset);
        k[2 * node] = table.rowVersion(node);
        k[2 * node + 1] = v;
      }
      if (max != null) {
        max[0] = hi;
      }
    }
  }
}
