package io.fleetkit.scheduler.plugins.defaultpreemption;

import io.fleetkit.api.framework.PodInfo;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.jspecify.annotations.Nullable;

/**
 * Chooses the node to preempt on (upstream {@code SelectCandidate} and {@code pickOneNodeForPreemption}): a
 * lexicographic cascade where each criterion keeps only the best-scoring candidates and the next one breaks ties.
 */
final class CandidatePicker {
  /** Added to every priority in the sum so that all terms are positive (upstream {@code MaxInt32 + 1}). */
  private static final long PRIORITY_OFFSET = (long) Integer.MAX_VALUE + 1;

  private CandidatePicker() {}

  /**
   * The best candidate, or {@code null} when there is none:
   *
   * <ol>
   *   <li>fewest PodDisruptionBudget violations;
   *   <li>lowest priority of its most important victim;
   *   <li>smallest sum of victim priorities (each shifted by 2^31);
   *   <li>fewest victims;
   *   <li>latest earliest-start-time among its highest-priority victims;
   *   <li>the first in {@code candidates}' order.
   * </ol>
   *
   * Victims are expected in importance order (most important first), as {@link VictimSelector} returns them.
   */
  static @Nullable Candidate pick(List<Candidate> candidates, Instant now) {
    if (candidates.isEmpty()) {
      return null;
    }
    if (candidates.size() == 1) {
      return candidates.get(0);
    }
    List<ToLongFunction<Candidate>> scores = List.of(
        c -> -c.numPdbViolations(),
        c -> 0L - c.victims().get(0).priority(), // in long: -MIN_VALUE must not overflow
        c -> {
          long sum = 0;
          for (PodInfo p : c.victims()) {
            sum += p.priority() + PRIORITY_OFFSET;
          }
          return -sum;
        },
        c -> -c.victims().size(),
        c -> epochNanos(earliestStartOfHighestPriority(c.victims(), now)));
    List<Candidate> remaining = candidates;
    for (ToLongFunction<Candidate> score : scores) {
      List<Candidate> best = new ArrayList<>();
      long max = Long.MIN_VALUE;
      for (Candidate c : remaining) {
        long s = score.applyAsLong(c);
        if (s > max) {
          max = s;
          best.clear();
        }
        if (s == max) {
          best.add(c);
        }
      }
      if (best.size() == 1) {
        return best.get(0);
      }
      remaining = best;
    }
    return remaining.get(0);
  }

  /** Upstream {@code GetEarliestPodStartTime}: the earliest start among the victims of the highest priority. */
  static Instant earliestStartOfHighestPriority(List<PodInfo> victims, Instant now) {
    Instant earliest = PodImportance.startTime(victims.get(0), now);
    int maxPriority = victims.get(0).priority();
    for (PodInfo p : victims) {
      if (p.priority() == maxPriority) {
        Instant t = PodImportance.startTime(p, now);
        if (t.isBefore(earliest)) {
          earliest = t;
        }
      } else if (p.priority() > maxPriority) {
        maxPriority = p.priority();
        earliest = PodImportance.startTime(p, now);
      }
    }
    return earliest;
  }

  private static long epochNanos(Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    } catch (ArithmeticException overflow) {
      return t.getEpochSecond() < 0 ? Long.MIN_VALUE + 1 : Long.MAX_VALUE;
    }
  }
}
