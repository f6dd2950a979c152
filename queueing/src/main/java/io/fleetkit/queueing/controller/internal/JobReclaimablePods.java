package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobStatus;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's Job integration's reclaimable pods ({@code pkg/controller/jobs/job/job_controller.go}, {@code
 * ReclaimablePods}): a Job with a parallelism above 1 and some terminal pods reclaims {@code parallelism - remaining}
 * pods of its pod set when fewer than its parallelism remain to run, {@code remaining = max(completions - terminal,
 * 0)}. Terminal pods are the succeeded ones; for an Indexed Job, the indexes its status lists as completed or failed,
 * counted once and below {@code completions} ({@code terminalIndexesCount}), so that an index whose pod failed but may
 * be retried still holds quota.
 */
final class JobReclaimablePods {
  private JobReclaimablePods() {}

  /**
   * The Job's reclaimable pods by pod set ({@code main}), at most {@code podSetCount} (Kueue's
   * {@code LimitReclaimablePodsToPodSetSizes}); empty when none.
   */
  static Map<String, Integer> of(Job job, int podSetCount) {
    int parallelism = job.spec().parallelism();
    Integer c = job.spec().completions();
    int completions = c == null ? parallelism : c;
    JobStatus s = job.status();
    int terminal = s.succeeded();
    if (job.spec().completionMode() == CompletionMode.Indexed) {
      terminal = terminalIndexesCount(s.completedIndexes(), s.failedIndexes(), completions);
    }
    int reclaimable = 0;
    if (parallelism > 1 && terminal > 0) {
      int remaining = Math.max(completions - terminal, 0);
      if (remaining < parallelism) {
        reclaimable = parallelism - remaining;
      }
    }
    reclaimable = Math.min(reclaimable, podSetCount);
    return reclaimable <= 0 ? Map.of() : Map.of(JobWorkloads.POD_SET, reclaimable);
  }

  /**
   * Kueue's {@code terminalIndexesCount}: the indexes below {@code completions} in the union of the completed and
   * failed index lists ({@code "0-3,7"}); a malformed or descending interval is passed over.
   */
  static int terminalIndexesCount(@Nullable String completedIndexes, @Nullable String failedIndexes,
      int completions) {
    if (completions <= 0) {
      return 0;
    }
    int limit = completions;
    List<int[]> intervals = new ArrayList<>();
    for (String indexes : new String[] {completedIndexes, failedIndexes}) {
      if (indexes == null || indexes.isEmpty()) {
        continue;
      }
      for (String interval : indexes.split(",", -1)) {
        int[] range = parseRange(interval);
        if (range == null) {
          continue;
        }
        int last = Math.min(range[1], limit - 1);
        if (range[0] <= last) {
          intervals.add(new int[] {range[0], last});
        }
      }
    }
    intervals.sort(Comparator.comparingInt(r -> r[0]));
    int count = 0;
    int lastCounted = -1;
    for (int[] r : intervals) {
      int firstUncounted = Math.max(r[0], lastCounted + 1);
      if (firstUncounted > r[1]) {
        continue;
      }
      count += r[1] - firstUncounted + 1;
      lastCounted = r[1];
    }
    return count;
  }

  /** {@code "3"} or {@code "3-5"} as its inclusive bounds, or {@code null} if malformed or descending. */
  private static int @Nullable [] parseRange(String interval) {
    int dash = interval.indexOf('-');
    Integer first = parse(dash < 0 ? interval : interval.substring(0, dash));
    if (first == null) {
      return null;
    }
    Integer last = dash < 0 ? first : parse(interval.substring(dash + 1));
    if (last == null || last < first) {
      return null;
    }
    return new int[] {first, last};
  }

  /** Go's {@code strconv.Atoi} on an index: optional sign, decimal digits, within int range; else {@code null}. */
  private static @Nullable Integer parse(String s) {
    try {
      return Integer.parseInt(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
