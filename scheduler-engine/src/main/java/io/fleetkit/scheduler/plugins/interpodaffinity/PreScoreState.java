package io.fleetkit.scheduler.plugins.interpodaffinity;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What PreScore computes for Score (upstream {@code preScoreState.topologyScore}): per topology key and value, the
 * summed weights of matching terms. Built by {@link Builder}, then immutable; {@link #score} does not allocate.
 */
final class PreScoreState {
  private final String[] keys;
  private final List<Map<String, Long>> values;

  private PreScoreState(String[] keys, List<Map<String, Long>> values) {
    this.keys = keys;
    this.values = values;
  }

  /** The summed weights of the node's topology pairs. */
  long score(Map<String, String> nodeLabels) {
    long score = 0;
    for (int i = 0; i < keys.length; i++) {
      String v = nodeLabels.get(keys[i]);
      if (v != null) {
        Long s = values.get(i).get(v);
        if (s != null) {
          score += s;
        }
      }
    }
    return score;
  }

  boolean isEmpty() {
    return keys.length == 0;
  }

  /** A state of the weight sums in {@code totals} (topology key, then value, to {weight sum, ...}). */
  static PreScoreState of(Map<String, ? extends Map<String, long[]>> totals) {
    String[] keys = totals.keySet().toArray(new String[0]);
    List<Map<String, Long>> values = new ArrayList<>(keys.length);
    for (String k : keys) {
      Map<String, long[]> byValue = totals.get(k);
      HashMap<String, Long> copy = new HashMap<>(Math.max(4, byValue.size() * 2));
      byValue.forEach((v, c) -> copy.put(v, c[0]));
      values.add(copy);
    }
    return new PreScoreState(keys, List.copyOf(values));
  }

  /** Accumulates weights; not thread-safe. */
  static final class Builder {
    private final HashMap<String, HashMap<String, Long>> scores = new HashMap<>();

    /** Adds {@code weight} to the pair (key, the node's value for key) if the node has the key. */
    void add(Map<String, String> nodeLabels, String key, long weight) {
      String v = nodeLabels.get(key);
      if (v != null) {
        scores.computeIfAbsent(key, k -> new HashMap<>()).merge(v, weight, Long::sum);
      }
    }

    boolean isEmpty() {
      return scores.isEmpty();
    }

    PreScoreState build() {
      String[] keys = scores.keySet().toArray(new String[0]);
      List<Map<String, Long>> values = new ArrayList<>(keys.length);
      for (String k : keys) {
        values.add(Map.copyOf(scores.get(k)));
      }
      return new PreScoreState(keys, List.copyOf(values));
    }
  }
}
