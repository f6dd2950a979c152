package io.fleetkit.scheduler.plugins.interpodaffinity;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Running per-topology-pair score sums of what existing pods' terms give an incoming pod that has no preferred terms
 * of its own (upstream scoring.go {@code processExistingPod}: their required affinity with
 * {@code hardPodAffinityWeight}, their preferred affinity and anti-affinity), kept across scheduling cycles. That
 * contribution depends only on the incoming pod's namespace, labels and namespace labels, which successive pods of a
 * workload share; so each cycle replays only the {@link NodeMemo} change log, retracting a changed node's old
 * contribution and adding its new one.
 *
 * <p>A pair stays present while some term contributes to it (even with weights summing to zero), as upstream's map
 * entry does. Not thread-safe: used under the {@link NodeMemo} monitor.
 */
final class ScoreIndex {
  private static final int MAX_INDEXES = 16;

  private final Pod pod;
  private final AffinityTerm.NamespaceLabels ownNs;
  private final int hardPodAffinityWeight;
  private long seen = -1;
  private @Nullable Contribution[] contributions = new Contribution[0];
  /** Topology key, then value, to {weight sum, contributing terms}. */
  private final HashMap<String, HashMap<String, long[]>> totals = new HashMap<>();

  private ScoreIndex(Pod pod, AffinityTerm.NamespaceLabels ownNs, int hardPodAffinityWeight) {
    this.pod = pod;
    this.ownNs = ownNs;
    this.hardPodAffinityWeight = hardPodAffinityWeight;
  }

  /** The current sums as a PreScore state; {@code null} when no pair is present (PreScore then skips). */
  @Nullable PreScoreState toState() {
    if (totals.isEmpty()) {
      return null;
    }
    return PreScoreState.of(totals);
  }

  private void sync(NodeMemo memo) {
    if (seen < memo.logBase()) {
      int n = Math.max(memo.size(), contributions.length);
      grow(n);
      for (int i = 0; i < n; i++) {
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
    if (contributions.length < n) {
      contributions = Arrays.copyOf(contributions, Math.max(n, contributions.length * 2));
    }
  }

  private void update(int i, @Nullable NodeInfo node) {
    Contribution old = contributions[i];
    if (old != null) {
      for (int k = 0; k < old.size; k++) {
        HashMap<String, long[]> byValue = totals.get(old.keys[k]);
        long[] c = byValue.get(old.values[k]);
        c[0] -= old.weights[k];
        if (--c[1] == 0) {
          byValue.remove(old.values[k]);
          if (byValue.isEmpty()) {
            totals.remove(old.keys[k]);
          }
        }
      }
    }
    Contribution now = node == null ? null : contributionOf(node);
    contributions[i] = now;
    if (now != null) {
      for (int k = 0; k < now.size; k++) {
        long[] c = totals.computeIfAbsent(now.keys[k], x -> new HashMap<>()).computeIfAbsent(now.values[k],
            x -> new long[2]);
        c[0] += now.weights[k];
        c[1]++;
      }
    }
  }

  /** What the node's pods' terms give the incoming pod, one entry per matching term on a node with its key. */
  private @Nullable Contribution contributionOf(NodeInfo node) {
    Map<String, String> labels = node.labels();
    List<PodInfo> pods = node.podsWithAffinity();
    if (labels.isEmpty() || pods.isEmpty()) {
      return null;
    }
    Contribution c = null;
    for (int j = 0, m = pods.size(); j < m; j++) {
      Pod existing = pods.get(j).pod();
      if (!PodTerms.hasScoringTerms(existing)) {
        continue;
      }
      PodTerms et = PodTerms.of(existing);
      if (hardPodAffinityWeight > 0) {
        c = add(c, et.requiredAffinity, labels, hardPodAffinityWeight, true);
      }
      c = add(c, et.preferredAffinity, labels, 1, false);
      c = add(c, et.preferredAntiAffinity, labels, -1, false);
    }
    return c;
  }

  private @Nullable Contribution add(@Nullable Contribution c, List<AffinityTerm> terms,
      Map<String, String> labels, long factor, boolean fixedWeight) {
    for (int i = 0, n = terms.size(); i < n; i++) {
      AffinityTerm t = terms.get(i);
      if (t.matches(pod, ownNs)) {
        String v = labels.get(t.topologyKey);
        if (v != null) {
          if (c == null) {
            c = new Contribution();
          }
          c.add(t.topologyKey, v, fixedWeight ? factor : t.weight * factor);
        }
      }
    }
    return c;
  }

  /** One node's entries (key, value, weight). */
  private static final class Contribution {
    String[] keys = new String[2];
    String[] values = new String[2];
    long[] weights = new long[2];
    int size;

    void add(String key, String value, long weight) {
      if (size == keys.length) {
        keys = Arrays.copyOf(keys, size * 2);
        values = Arrays.copyOf(values, size * 2);
        weights = Arrays.copyOf(weights, size * 2);
      }
      keys[size] = key;
      values[size] = value;
      weights[size] = weight;
      size++;
    }
  }

  /** The indexes of one plugin instance, least recently used dropped beyond {@value #MAX_INDEXES}. */
  static final class Cache {
    private final Map<Key, ScoreIndex> byKey = new LinkedHashMap<>(16, 0.75f, true) {
      private static final long serialVersionUID = 1L;

      @Override
      protected boolean removeEldestEntry(Map.Entry<Key, ScoreIndex> eldest) {
        return size() > MAX_INDEXES;
      }
    };

    /**
     * The index for pods like {@code pod} (same namespace, labels and namespace labels), brought up to date with
     * {@code memo}.
     */
    ScoreIndex get(Pod pod, Map<String, String> namespaceLabels, int hardPodAffinityWeight, NodeMemo memo) {
      Key key = new Key(pod.metadata().namespace(), Map.copyOf(pod.metadata().labels()),
          Map.copyOf(namespaceLabels));
      ScoreIndex index = byKey.get(key);
      if (index == null) {
        index = new ScoreIndex(pod, AffinityTerm.NamespaceLabels.constant(namespaceLabels), hardPodAffinityWeight);
        byKey.put(key, index);
      }
      index.sync(memo);
      return index;
    }
  }

  private record Key(String namespace, Map<String, String> labels, Map<String, String> namespaceLabels) {}
}
