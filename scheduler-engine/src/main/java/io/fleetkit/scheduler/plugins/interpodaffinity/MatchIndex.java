package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Running counts, per topology pair, of the existing pods that match every term of a conjunction (one
 * {@link AffinityTerm.MatchKey} list), kept across scheduling cycles: the PreFilter counts of upstream's
 * {@code getIncomingAffinityAntiAffinityCounts} without a walk over every pod in the cluster. Successive pods of a
 * workload share their terms, so each cycle replays only the {@link NodeMemo} change log: a changed node's old count
 * is retracted and its pods are counted again.
 *
 * <p>Only for terms whose matching does not consult the namespace-labels lookup (which may change between cycles):
 * see {@link #usable}. Not thread-safe: used under the {@link NodeMemo} monitor.
 */
final class MatchIndex {
  private static final int MAX_INDEXES = 16;

  private final List<AffinityTerm> terms;
  private final String[] topologyKeys;
  /** Sequence number of the memo change log up to which this index is current; -1 before the first build. */
  private long seen = -1;
  private int[] counts = new int[0];
  /** Per topology key, the value each counted node had for it when counted (null: the node lacks the key). */
  private final @Nullable String[][] values;
  /** Per topology key: value to matching-pod count; pairs with count 0 are removed. */
  private final HashMap<String, int[]>[] totals;
  /** The array {@link #matching} last handed out (never written after), null before the first. */
  private boolean @Nullable [] published;
  /**
   * The positions whose "holds a matching pod" flipped since {@link #published}, the first {@link #flipCount}; past
   * {@link #MAX_FLIPS} the next {@link #matching} rebuilds from the counts instead.
   */
  private final int[] flips = new int[MAX_FLIPS];
  private int flipCount;
  private static final int MAX_FLIPS = 32;

  @SuppressWarnings({"unchecked", "rawtypes"})
  private MatchIndex(List<AffinityTerm> terms, String[] topologyKeys) {
    this.terms = terms;
    this.topologyKeys = topologyKeys;
    this.values = new String[topologyKeys.length][];
    this.totals = new HashMap[topologyKeys.length];
    for (int k = 0; k < topologyKeys.length; k++) {
      values[k] = new String[0];
      totals[k] = new HashMap<>();
    }
  }

  /** Whether the terms can be indexed: non-empty and none of them consults the namespace-labels lookup. */
  static boolean usable(List<AffinityTerm> terms) {
    if (terms.isEmpty()) {
      return false;
    }
    for (int i = 0, n = terms.size(); i < n; i++) {
      if (terms.get(i).usesNamespaceLabels) {
        return false;
      }
    }
    return true;
  }

  /** Adds the count of every pair of {@code topologyKey} (one of this index's keys) to {@code out}. */
  void addTo(TopologyCounts out, String topologyKey, long multiplier) {
    HashMap<String, int[]> t = totals[keyIndex(topologyKey)];
    for (Map.Entry<String, int[]> e : t.entrySet()) {
      out.add(topologyKey, e.getKey(), e.getValue()[0] * multiplier);
    }
  }

  /**
   * Per position, whether its node holds a pod matching the terms, as of this cycle: positions past the array's end
   * hold none. The array is shared and never written after it is returned (a later change gives a new array), so a
   * cycle may keep it while later cycles update the index. Costs a copy of the previous array plus the positions that
   * changed since, when some did; nothing when none did.
   */
  boolean[] matching() {
    boolean[] p = published;
    if (p != null && flipCount == 0) {
      return p;
    }
    int[] c = counts;
    boolean[] next;
    if (p == null || flipCount > MAX_FLIPS) {
      next = new boolean[c.length];
      for (int i = 0; i < c.length; i++) {
        next[i] = c[i] > 0;
      }
    } else {
      next = Arrays.copyOf(p, Math.max(p.length, c.length));
      for (int f = 0; f < flipCount; f++) {
        int i = flips[f];
        next[i] = c[i] > 0;
      }
    }
    flipCount = 0;
    published = next;
    return next;
  }

  /** Whether some node with {@code topologyKey} (one of this index's keys) holds a matching pod. */
  boolean anyWith(String topologyKey) {
    return !totals[keyIndex(topologyKey)].isEmpty();
  }

  private int keyIndex(String topologyKey) {
    for (int k = 0; k < topologyKeys.length; k++) {
      if (topologyKeys[k].equals(topologyKey)) {
        return k;
      }
    }
    throw new IllegalArgumentException("MatchIndex: topology key " + topologyKey + " is not indexed");
  }

  /** Brings the counts up to date with the memo (refreshed for this cycle). */
  private void sync(NodeMemo memo) {
    int size = memo.size();
    if (seen < memo.logBase()) {
      int known = counts.length;
      grow(Math.max(size, known));
      for (int i = 0; i < Math.max(size, known); i++) {
        update(i, memo.nodeOrNull(i));
      }
    } else {
      for (long seq = seen, end = memo.logEnd(); seq < end; seq++) {
        int i = memo.changedAt(seq);
        grow(i + 1);
        update(i, memo.nodeOrNull(i));
      }
    }
    seen = memo.logEnd();
  }

  private void grow(int n) {
    if (counts.length < n) {
      int len = Math.max(n, counts.length * 2);
      counts = Arrays.copyOf(counts, len);
      for (int k = 0; k < values.length; k++) {
        values[k] = Arrays.copyOf(values[k], len);
      }
    }
  }

  private void update(int i, @Nullable NodeInfo node) {
    int old = counts[i];
    if (old > 0) {
      for (int k = 0; k < topologyKeys.length; k++) {
        String v = values[k][i];
        if (v != null) {
          int[] c = totals[k].get(v);
          c[0] -= old;
          if (c[0] == 0) {
            totals[k].remove(v);
          }
        }
      }
    }
    int c = node == null ? 0 : countMatching(node.pods());
    counts[i] = c;
    if ((old > 0) != (c > 0) && published != null) {
      if (flipCount < MAX_FLIPS) {
        flips[flipCount] = i;
      }
      flipCount++; // past MAX_FLIPS: rebuilt from the counts
    }
    for (int k = 0; k < topologyKeys.length; k++) {
      String v = c > 0 ? node.labels().get(topologyKeys[k]) : null;
      values[k][i] = v;
      if (v != null) {
        totals[k].computeIfAbsent(v, x -> new int[1])[0] += c;
      }
    }
  }

  private int countMatching(List<PodInfo> pods) {
    int c = 0;
    for (int j = 0, m = pods.size(); j < m; j++) {
      if (PreFilterState.matchesAll(terms, pods.get(j).pod(), NO_LOOKUP)) {
        c++;
      }
    }
    return c;
  }

  /** Never consulted: indexed terms do not use the namespace-labels lookup. */
  private static final AffinityTerm.NamespaceLabels NO_LOOKUP = ns -> {
    throw new IllegalStateException("MatchIndex: indexed terms must not consult namespace labels");
  };

  /** The indexes of one plugin instance, least recently used dropped beyond {@value #MAX_INDEXES}. */
  static final class Cache {
    private final Map<Key, MatchIndex> byKey = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, MatchIndex> eldest) {
        return size() > MAX_INDEXES;
      }
    };

    /**
     * The index of pods matching all of {@code terms} (which must be {@link #usable}), counted per value of each of
     * {@code topologyKeys}, brought up to date with {@code memo}.
     */
    MatchIndex get(List<AffinityTerm> terms, List<String> topologyKeys, NodeMemo memo) {
      MatchIndex index = last != null && sameAsLast(terms, topologyKeys) ? last : null;
      if (index == null) {
        AffinityTerm.MatchKey[] match = new AffinityTerm.MatchKey[terms.size()];
        for (int i = 0; i < match.length; i++) {
          match[i] = terms.get(i).matchKey;
        }
        Key key = new Key(List.of(match), topologyKeys);
        index = byKey.get(key);
        if (index == null) {
          index = new MatchIndex(terms, topologyKeys.toArray(new String[0]));
          byKey.put(key, index);
        }
        last = index;
        lastMatch = match;
        lastTopologyKeys = topologyKeys;
      }
      index.sync(memo);
      return index;
    }

    /**
     * The index the previous {@link #get} returned, and what it was asked for: asked again for the very same match
     * keys (identity: successive pods of a workload share their compiled terms, {@link PodTerms.RecentTerms}) and
     * equal topology keys, it is the index the map holds for them, found without hashing the keys' selectors.
     */
    private @Nullable MatchIndex last;
    private AffinityTerm.MatchKey[] lastMatch = new AffinityTerm.MatchKey[0];
    private List<String> lastTopologyKeys = List.of();

    private boolean sameAsLast(List<AffinityTerm> terms, List<String> topologyKeys) {
      AffinityTerm.MatchKey[] m = lastMatch;
      if (terms.size() != m.length) {
        return false;
      }
      for (int i = 0; i < m.length; i++) {
        if (terms.get(i).matchKey != m[i]) {
          return false;
        }
      }
      return topologyKeys == lastTopologyKeys || topologyKeys.equals(lastTopologyKeys);
    }
  }

  private record Key(List<AffinityTerm.MatchKey> match, List<String> topologyKeys) {}
}
