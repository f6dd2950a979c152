package io.fleetkit.scheduler.batch;

import java.util.Map;
import java.util.NavigableMap;
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

  /** The earliest start at or after 0 and at most {@code latest} where {@code nodes} are free for {@code duration}. */
  long earliest(int nodes, long duration, long latest) {
    for (long t : steps.keySet()) {
      if (t > latest) {
        return -1;
      }
      if (fits(t, nodes, duration)) {
        return t;
      }
    }
    return -1;
  }

  private boolean fits(long t, int nodes, long duration) {
    long end = t + duration;
    NavigableMap<Long, Integer> span = steps.subMap(steps.floorKey(t), true, end, false);
    for (int free : span.values()) {
      if (free < nodes) {
        return false;
      }
    }
    return true;
  }

  int minFree() {
    int min = Integer.MAX_VALUE;
    for (int v : steps.values()) {
      min = Math.min(min, v);
    }
    return min;
  }
}
