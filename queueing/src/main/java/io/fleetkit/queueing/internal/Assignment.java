package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.PodSetAssignment;
import java.util.List;
import java.util.Map;

/**
 * The flavor assigner's answer for one workload in one ClusterQueue.
 *
 * @param mode the worst mode over all pod sets and resources: {@link #FIT}, {@link #PREEMPT} or {@link #NO_FIT}
 *     ({@link #NO_CANDIDATES} is reported as {@link #PREEMPT}, with no targets, and {@link #RECLAIM} as
 *     {@link #PREEMPT})
 * @param borrowing Kueue's borrowing level: 0 if the assignment stays within the queue's nominal quota, else the height
 *     of the lowest subtree of the cohort tree that covers it (1 for a flat cohort)
 * @param podSets the chosen flavors per pod set (empty when {@link #NO_FIT})
 * @param frs the flavor-resources the workload would use
 * @param values the milli-values used of each of {@code frs}
 * @param needPreemption per flavor-resource index: whether it was assigned in mode {@link #PREEMPT}
 * @param message why it does not fit (empty when it fits)
 * @param lastTriedFlavorIdx how far the flavor search got, per pod set and resource (Kueue's {@code
 *     Assignment.LastState.LastTriedFlavorIdx}; {@link FlavorScanProgress}): recorded by the flavor assigner, kept as
 *     the topology is placed (even when it then does not fit); empty for an assignment the assigner did not make
 */
public record Assignment(
    int mode,
    int borrowing,
    List<PodSetAssignment> podSets,
    int[] frs,
    long[] values,
    boolean[] needPreemption,
    String message,
    List<Map<String, Integer>> lastTriedFlavorIdx) {
  public static final int NO_FIT = 0;
  /** Fits only by preemption, but the preemptor finds nothing to preempt (Kueue's noPreemptionCandidates). */
  public static final int NO_CANDIDATES = 1;
  /** Fits by preemption, and the preemptor's candidates include the queue's own workloads (Kueue's preempt). */
  public static final int PREEMPT = 2;
  /**
   * Fits by preemption that only reclaims quota other queues of the cohort borrow (Kueue's reclaim); the flavor
   * assigner ranks it above {@link #PREEMPT} and reports it as {@link #PREEMPT}.
   */
  public static final int RECLAIM = 3;
  public static final int FIT = 4;

  public Assignment {
    lastTriedFlavorIdx = List.copyOf(lastTriedFlavorIdx);
  }

  /** An assignment that records no flavor search (one made up by a caller, not by the flavor assigner). */
  public Assignment(int mode, int borrowing, List<PodSetAssignment> podSets, int[] frs, long[] values,
      boolean[] needPreemption, String message) {
    this(mode, borrowing, podSets, frs, values, needPreemption, message, List.of());
  }

  /** Whether the assignment takes the queue above its nominal quota in some flavor-resource. */
  public boolean borrows() {
    return borrowing > 0;
  }
}
