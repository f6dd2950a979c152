package io.fleetkit.scheduler.plugins.interpodaffinity;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts per topology pair (upstream {@code topologyToMatchedTermCount}): topology key, then topology value, to a
 * number of matching pods or terms. Kept as nested maps so that a lookup by the node's label value allocates
 * nothing. Pairs whose count drops to zero are removed, so {@link #isEmpty()} means "no pair counted" as upstream's
 * {@code len(map) == 0}.
 *
 * <p>Not thread-safe: filled in PreFilter, then only read (Filter); AddPod/RemovePod update a {@link #copy()}.
 */
final class TopologyCounts {
  private static final String[] NO_KEYS = new String[0];

  private final HashMap<String, HashMap<String, long[]>> byKey;
  /** The keys of {@link #byKey}, for allocation-free iteration in Filter; replaced when a key comes or goes. */
  private String[] keys = NO_KEYS;
  private int pairs;

  TopologyCounts() {
    this.byKey = new HashMap<>(4);
  }

  private TopologyCounts(TopologyCounts other) {
    this.byKey = new HashMap<>(Math.max(4, other.byKey.size() * 2));
    for (Map.Entry<String, HashMap<String, long[]>> e : other.byKey.entrySet()) {
      HashMap<String, long[]> copy = new HashMap<>(Math.max(4, e.getValue().size() * 2));
      for (Map.Entry<String, long[]> v : e.getValue().entrySet()) {
        copy.put(v.getKey(), new long[] {v.getValue()[0]});
      }
      byKey.put(e.getKey(), copy);
    }
    this.pairs = other.pairs;
    this.keys = other.keys;
  }

  TopologyCounts copy() {
    return new TopologyCounts(this);
  }

  /** Adds {@code delta} to the pair (key, value of {@code key} in {@code nodeLabels}) if the node has the key. */
  void update(Map<String, String> nodeLabels, String key, long delta) {
    String value = nodeLabels.get(key);
    if (value != null) {
      add(key, value, delta);
    }
  }

  void add(String key, String value, long delta) {
    if (delta == 0) {
      return;
    }
    HashMap<String, long[]> values = byKey.get(key);
    if (values == null) {
      values = new HashMap<>();
      byKey.put(key, values);
      keys = byKey.keySet().toArray(NO_KEYS);
    }
    long[] c = values.get(value);
    if (c == null) {
      values.put(value, new long[] {delta});
      pairs++;
      return;
    }
    c[0] += delta;
    if (c[0] == 0) {
      values.remove(value);
      pairs--;
      if (values.isEmpty()) {
        byKey.remove(key);
        keys = byKey.keySet().toArray(NO_KEYS);
      }
    }
  }

  /** The count of a pair, 0 when absent. */
  long get(String key, String value) {
    HashMap<String, long[]> values = byKey.get(key);
    if (values == null) {
      return 0;
    }
    long[] c = values.get(value);
    return c == null ? 0 : c[0];
  }

  /** Whether some pair (key, the node's value for key) has a positive count. */
  boolean anyPositive(Map<String, String> nodeLabels) {
    if (pairs == 0) {
      return false;
    }
    String[] ks = keys;
    for (String k : ks) {
      String value = nodeLabels.get(k);
      if (value != null) {
        long[] c = byKey.get(k).get(value);
        if (c != null && c[0] > 0) {
          return true;
        }
      }
    }
    return false;
  }

  boolean isEmpty() {
    return pairs == 0;
  }

  /** The counts as {@code key=value -> count}, sorted (for tests and messages). */
  Map<String, Long> asMap() {
    Map<String, Long> out = new TreeMap<>();
    byKey.forEach((k, values) -> values.forEach((v, c) -> out.put(k + "=" + v, c[0])));
    return out;
  }

  @Override
  public String toString() {
    return asMap().toString();
  }
}
