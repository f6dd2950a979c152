package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Status;
import java.util.SplittableRandom;

/**
 * The Score half of a scheduling cycle, after {@link FeasibleNodes}: PreScore, Score over the feasible nodes (read
 * by position from the snapshot's node table where plugins allow) and kube's {@code selectHost}. Holds the totals
 * buffer reused across cycles. Confined to the scheduling thread.
 */
final class HostSelection {
  private final ClusterSnapshot snapshot;
  private final ParallelRunner runner;
  private final int inlineWork;
  private final SplittableRandom random;
  private long[] totals = new long[0];
  /** Scratch for {@link #selectHost}: the positions tied at the highest total. */
  private int[] ties = new int[0];
  /** The highest total when the last {@link #score} knew it ({@link Framework#knownTotalsMax}), else Long.MIN_VALUE. */
  private long knownMax = Long.MIN_VALUE;

  HostSelection(ClusterSnapshot snapshot, ParallelRunner runner, int inlineWork, SplittableRandom random) {
    this.snapshot = snapshot;
    this.runner = runner;
    this.inlineWork = inlineWork;
    this.random = random;
  }

  /** Runs PreScore over the feasible nodes; success or the error to fail with. */
  Status preScore(Framework fw, ArrayCycleState state, PodInfo pod, FeasibleNodes feasible) {
    return fw.runPreScore(state, pod, feasible.list());
  }

  /** After a successful {@link #preScore}: runs Score over the first {@code found} feasible nodes. */
  Status score(Framework fw, ArrayCycleState state, PodInfo pod, FeasibleNodes feasible, int found) {
    if (totals.length < found) {
      totals = new long[Math.max(found, totals.length * 2)];
    }
    Status s = fw.runScore(state, pod, snapshot.table, feasible.indices(), feasible.list(), found, totals, runner,
        inlineWork);
    knownMax = fw.knownTotalsMax();
    return s;
  }

  /**
   * After {@link #score}: the position of the highest total; ties broken uniformly at random with the seeded
   * generator, as kube's {@code selectHost} (which samples a reservoir): one draw among the tied nodes instead of one
   * per tie, so a cycle costs a single random number.
   */
  int selectHost(int k) {
    if (ties.length < k) {
      ties = new int[Math.max(k, ties.length * 2)];
    }
    return knownMax == Long.MIN_VALUE ? selectHost(totals, k, random, ties)
        : selectHost(totals, k, knownMax, random, ties);
  }

  /**
   * {@link #selectHost(long[], int, SplittableRandom, int[])} when the highest value {@code max} of {@code t[0..k)} is
   * known: its second pass alone, from position 0. The positions before the first that holds {@code max} hold less, so
   * the list of tied positions, their count and the draw are the same.
   */
  static int selectHost(long[] t, int k, long max, SplittableRandom random, int[] ties) {
    int count = 0;
    for (int i = 0; i < k; i++) {
      ties[count] = i;
      count += t[i] == max ? 1 : 0;
    }
    return count == 1 ? ties[0] : ties[random.nextInt(count)];
  }

  /** {@link #selectHost(long[], int, SplittableRandom, int[])} with a scratch array of its own. */
  static int selectHost(long[] t, int k, SplittableRandom random) {
    return selectHost(t, k, random, new int[k]);
  }

  /**
   * The position in {@code t[0..k)} of the highest value; among several, the {@code random.nextInt(count)}-th of
   * them in order (no draw when the highest is unique). Two passes whose branches follow the rare events only: the
   * maximum and its first position, then the positions that hold it, listed in {@code ties} (every position is
   * written at the list's end, which advances by a conditional add), from which the draw picks. A single pass that
   * also branched on each tie mispredicted about every other node when many nodes tie (identical empty nodes are the
   * common case). {@code ties} needs room for {@code k} positions.
   */
  static int selectHost(long[] t, int k, SplittableRandom random, int[] ties) {
    long max = t[0];
    int first = 0;
    for (int i = 1; i < k; i++) {
      long v = t[i];
      if (v > max) {
        max = v;
        first = i;
      }
    }
    int count = 0;
    for (int i = first; i < k; i++) {
      ties[count] = i;
      count += t[i] == max ? 1 : 0;
    }
    return count == 1 ? first : ties[random.nextInt(count)];
  }
}
