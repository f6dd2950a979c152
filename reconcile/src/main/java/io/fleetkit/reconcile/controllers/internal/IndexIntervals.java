package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.text.GoIntegers;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Upstream's {@code orderedIntervals} ({@code pkg/controller/job/indexed_job_utils.go}): a set of completion indexes
 * as sorted, disjoint, non-adjacent intervals, the form of {@code status.completedIndexes} and
 * {@code status.failedIndexes} ({@code "1,3-5,7"}). Immutable; thread-safe.
 */
public final class IndexIntervals {
  /** No index. */
  public static final IndexIntervals EMPTY = new IndexIntervals(List.of());

  /** One interval, both ends included. */
  public record Interval(int first, int last) {}

  private final List<Interval> intervals;

  private IndexIntervals(List<Interval> intervals) {
    this.intervals = List.copyOf(intervals);
  }

  /** The intervals as given (upstream's literal {@code orderedIntervals{{0, 2}, {4, 7}}}), for tests. */
  public static IndexIntervals of(int... firstLastPairs) {
    List<Interval> out = new ArrayList<>();
    for (int i = 0; i + 1 < firstLastPairs.length; i += 2) {
      out.add(new Interval(firstLastPairs[i], firstLastPairs[i + 1]));
    }
    return new IndexIntervals(out);
  }

  /** The given indexes, in any order. */
  public static IndexIntervals ofIndexes(Collection<Integer> indexes) {
    return EMPTY.withOrderedIndexes(new TreeSet<>(indexes));
  }

  /**
   * Upstream's {@code parseIndexesFromString}: lenient. A corrupted interval is skipped, parsing stops at the first
   * interval starting at or above {@code completions}, an interval's end is cut to {@code completions - 1}, and
   * adjacent intervals are joined.
   */
  public static IndexIntervals parse(String text, int completions) {
    if (text.isEmpty()) {
      return EMPTY;
    }
    List<Interval> result = new ArrayList<>();
    for (String part : text.split(",", -1)) {
      String[] limits = part.split("-", -1);
      int first;
      int last;
      try {
        first = GoIntegers.atoi32(limits[0]); // strconv.Atoi: ASCII digits only
      } catch (NumberFormatException e) {
        continue; // "Corrupted indexes interval, ignoring"
      }
      if (first >= completions) {
        break;
      }
      if (limits.length > 1) {
        try {
          last = GoIntegers.atoi32(limits[1]);
        } catch (NumberFormatException e) {
          continue;
        }
        if (last >= completions) {
          last = completions - 1;
        }
      } else {
        last = first;
      }
      if (!result.isEmpty() && result.get(result.size() - 1).last() == first - 1) {
        Interval prev = result.remove(result.size() - 1);
        result.add(new Interval(prev.first(), last));
      } else {
        result.add(new Interval(first, last));
      }
    }
    return new IndexIntervals(result);
  }

  /** The intervals, sorted. */
  public List<Interval> intervals() {
    return intervals;
  }

  /** Upstream's {@code withOrderedIndexes}: these intervals and {@code newIndexes} (sorted ascending). */
  public IndexIntervals withOrderedIndexes(Iterable<Integer> newIndexes) {
    List<Interval> added = new ArrayList<>();
    for (int ix : newIndexes) {
      added.add(new Interval(ix, ix));
    }
    return merge(new IndexIntervals(added));
  }

  /** Upstream's {@code merge}: the union. */
  public IndexIntervals merge(IndexIntervals other) {
    List<Interval> result = new ArrayList<>();
    int i = 0;
    int j = 0;
    List<Interval> a = intervals;
    List<Interval> b = other.intervals;
    while (i < a.size() && j < b.size()) {
      if (a.get(i).first() < b.get(j).first()) {
        append(result, a.get(i++));
      } else {
        append(result, b.get(j++));
      }
    }
    while (i < a.size()) {
      append(result, a.get(i++));
    }
    while (j < b.size()) {
      append(result, b.get(j++));
    }
    return new IndexIntervals(result);
  }

  private static void append(List<Interval> result, Interval next) {
    if (result.isEmpty() || next.first() > result.get(result.size() - 1).last() + 1) {
      result.add(next);
      return;
    }
    Interval last = result.get(result.size() - 1);
    if (last.last() < next.last()) {
      result.set(result.size() - 1, new Interval(last.first(), next.last()));
    }
  }

  /** Upstream's {@code total}: how many indexes. */
  public int total() {
    int count = 0;
    for (Interval iv : intervals) {
      count += iv.last() - iv.first() + 1;
    }
    return count;
  }

  /** Upstream's {@code has}: whether {@code ix} is in one of the intervals (binary search). */
  public boolean has(int ix) {
    int lo = 0;
    int hi = intervals.size();
    while (hi > lo) {
      int mid = lo + (hi - lo) / 2;
      if (intervals.get(mid).last() >= ix) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return hi != intervals.size() && intervals.get(hi).first() <= ix;
  }

  /** Upstream's {@code String()}: {@code "1,3-5,7"}; an interval of two is written {@code "0,1"}. */
  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder();
    for (Interval v : intervals) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(v.first());
      if (v.last() > v.first()) {
        sb.append(v.last() == v.first() + 1 ? ',' : '-').append(v.last());
      }
    }
    return sb.toString();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof IndexIntervals other && intervals.equals(other.intervals);
  }

  @Override
  public int hashCode() {
    return Objects.hash(intervals);
  }
}
