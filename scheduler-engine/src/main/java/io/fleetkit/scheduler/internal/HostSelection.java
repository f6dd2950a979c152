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
    return fw.runScore(state, pod, snapshot.table, feasible.indices(), feasible.list(), found, totals, runner,
        inlineWork);
  }

  /**
   * After {@link #score}: the position of the highest total; ties broken uniformly at random with the seeded
   * generator, as kube's {@code selectHost} (which samples a reservoir): one draw among the tied nodes instead of one
   * per tie, so a cycle costs a single random number.
   */
  int selectHost(int k) {
    return selectHost(totals, k, random);
  }

  /**
   * The position in {@code t[0..k)} of the highest value; among several, the {@code random.nextInt(count)}-th of
   * them in order (no draw when the highest is unique). Three passes whose branches follow the rare events only: the
   * maximum and its first position, how many positions hold it (a conditional add), and for ties the chosen one. A
   * single pass that also branched on each tie mispredicted about every other node when many nodes tie (identical
   * empty nodes are the common case).
   */
  static int selectHost(long[] t, int k, SplittableRandom random) {
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
      count += t[i] == max ? 1 : 0;
    }
    if (count == 1) {
      return first;
    }
    int pick = random.nextInt(count);
    for (int i = first; i < k; i++) {
      pick -= t[i] == max ? 1 : 0;
      if (pick < 0) {
        return i;
      }
    }
    throw new IllegalStateException("selectHost: no node with the highest score " + max);
  }
}
