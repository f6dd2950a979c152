package io.fleetkit.queueing.backfill;

import java.util.Map;
import java.util.TreeMap;

/**
 * Free nodes over time, as a step function: {@code free(t)} is the value of the last key at or before {@code t}
 * (times in seconds from now). With identical nodes, jobs that never exceed the free count at any instant can always
 * be given concrete nodes without moving (interval graphs are perfect), so counting is exact.
 */
final class Timeline {
  private final TreeMap<Long, Integer> steps = new TreeMap<>();

  Timeline(int freeNow) {
    steps.put(0L, freeNow);
  }

  int freeAt(long t) {
    return steps.floorEntry(t).getValue();
  }

  private void split(long t) {
    if (!steps.containsKey(t)) {
      steps.put(t, freeAt(t));
    }
  }

  /** Adds {@code delta} free nodes over {@code [from, to)}. */
  void add(long from, long to, int delta) {
    split(from);
    split(to);
    for (Map.Entry<Long, Integer> e : steps.subMap(from, true, to, false).entrySet()) {
      e.setValue(e.getValue() + delta);
    }
  }

  /**
   * The earliest start at or after 0 and at most {@code latest} where {@code nodes} are free for {@code duration}, or
   * -1. One sweep over the steps: a candidate start is the first step of a run of steps with enough free nodes; the
   * run fits once it reaches {@code candidate + duration} (the last step lasts forever).
   */
  long earliest(int nodes, long duration, long latest) {
    long candidate = -1;
    for (Map.Entry<Long, Integer> e : steps.entrySet()) {
      long t = e.getKey();
      if (candidate >= 0 && t >= candidate + duration) {
        return candidate;
      }
      if (e.getValue() >= nodes) {
        if (candidate < 0) {
          if (t > latest) {
            return -1;
          }
          candidate = t;
        }
      } else {
        candidate = -1;
      }
    }
    return candidate;
  }

  int minFree() {
    int min = Integer.MAX_VALUE;
    for (int v : steps.values()) {
      min = Math.min(min, v);
    }
    return min;
  }
}
