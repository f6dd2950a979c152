package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.PreemptionReason;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's classic preemption ({@code pkg/scheduler/preemption/preemption.go}) and its fair-sharing variant.
 *
 * <p>Candidates: with {@code withinClusterQueue} the queue's own lower-priority workloads (or equal priority and newer,
 * for {@code LowerOrNewerEqualPriority}); with {@code reclaimWithinCohort} the workloads of cohort members that borrow
 * in a flavor-resource needing preemption (lower priority only unless {@code Any}). Only workloads using such a
 * flavor-resource count. Candidates are ordered: other queues first, then lowest priority, then most recently
 * admitted.
 *
 * <p>Targets are taken greedily in that order, simulating each removal, until the workload fits; then the set is
 * minimised by walking it backwards and putting back every workload the preemptor does not need. To avoid flapping,
 * workloads of other queues are only taken while the preemptor's queue stays within its nominal quota, unless {@code
 * borrowWithinCohort} allows preempting below a priority threshold while borrowing; the last resort is the queue's own
 * workloads with borrowing.
 */
public final class Preemptor {
  private final FlavorResources index;
  private final boolean fairSharing;
  private final List<FairSharingStrategy> strategies;

  public Preemptor(FlavorResources index, boolean fairSharing, List<FairSharingStrategy> strategies) {
    this.index = index;
    this.fairSharing = fairSharing;
    this.strategies = List.copyOf(strategies);
  }

  /**
   * Kueue's preemption oracle ({@code preemption_oracle.go} {@code SimulatePreemption}): whether preemption can free
   * {@code value} of {@code fr} for {@code wl} in {@code cq}: {@link Assignment#NO_CANDIDATES} if it finds nothing to
   * preempt, {@link Assignment#PREEMPT} if some target is in {@code cq} itself, else {@link Assignment#RECLAIM} (every
   * target is in another queue of the cohort, which borrows the quota).
   */
  public int preemptionPossibility(Workload wl, CqState cq, int fr, long value) {
    boolean[] need = new boolean[index.size()];
    need[fr] = true;
    Assignment single = new Assignment(Assignment.PREEMPT, cq.borrowingWith(fr, value), List.of(),
        new int[] {fr}, new long[] {value}, need, "");
    List<Target> targets = targets(wl, cq, single);
    if (targets.isEmpty()) {
      return Assignment.NO_CANDIDATES;
    }
    for (Target t : targets) {
      if (t.victim().cq == cq) {
        return Assignment.PREEMPT;
      }
    }
    return Assignment.RECLAIM;
  }

  /** The minimal set of workloads to evict so that {@code wl} fits in {@code cq} with {@code a}; empty if none. */
  public List<Target> targets(Workload wl, CqState cq, Assignment a) {
    List<AdmittedWorkload> candidates = findCandidates(wl, cq, a.needPreemption());
    if (candidates.isEmpty()) {
      return List.of();
    }
    candidates.sort(candidateOrder(cq));
    List<AdmittedWorkload> sameQueue = new ArrayList<>();
    for (AdmittedWorkload c : candidates) {
      if (c.cq == cq) {
        sameQueue.add(c);
      }
    }
    if (sameQueue.size() == candidates.size()) {
      return minimalPreemptions(a, cq, candidates, true, null);
    }
    BorrowWithinCohort bwc = cq.spec.preemption().borrowWithinCohort();
    Integer threshold = null;
    boolean borrowWithinCohort = bwc.policy() != BorrowWithinCohort.Policy.NEVER;
    if (borrowWithinCohort) {
      Integer max = bwc.maxPriorityThreshold();
      threshold = max != null && max < wl.priority() ? max + 1 : wl.priority();
    }
    if (fairSharing) {
      return fairPreemptions(wl, cq, a, candidates, threshold);
    }
    if (borrowWithinCohort) {
      if (!underNominalIn(cq, a.needPreemption())) {
        // Only workloads strictly below the threshold may be taken from other queues.
        List<AdmittedWorkload> filtered = new ArrayList<>();
        for (AdmittedWorkload c : candidates) {
          if (c.cq == cq || c.priority() < threshold) {
            filtered.add(c);
          }
        }
        candidates = filtered;
      }
      return minimalPreemptions(a, cq, candidates, true, threshold);
    }
    if (underNominalIn(cq, a.needPreemption())) {
      List<Target> t = minimalPreemptions(a, cq, candidates, false, null);
      if (!t.isEmpty()) {
        return t;
      }
    }
    return minimalPreemptions(a, cq, sameQueue, true, null);
  }

  private List<AdmittedWorkload> findCandidates(Workload wl, CqState cq, boolean[] need) {
    List<AdmittedWorkload> out = new ArrayList<>();
    QueuePreemptionPolicy within = cq.spec.preemption().withinClusterQueue();
    if (within != QueuePreemptionPolicy.NEVER) {
      boolean samePriority = within == QueuePreemptionPolicy.LOWER_OR_NEWER_EQUAL_PRIORITY;
      for (AdmittedWorkload c : cq.admitted.values()) {
        int p = c.priority();
        if (p > wl.priority()) {
          continue;
        }
        if (p == wl.priority()
            && !(samePriority && wl.creationTime().isBefore(c.workload.creationTime()))) {
          continue;
        }
        if (c.uses(need)) {
          out.add(c);
        }
      }
    }
    CohortState cohort = cq.cohort;
    QueuePreemptionPolicy reclaim = cq.spec.preemption().reclaimWithinCohort();
    if (cohort != null && reclaim != QueuePreemptionPolicy.NEVER) {
      for (CqState other : cohort.members) {
        if (other == cq || !other.borrowingIn(need)) {
          continue;
        }
        for (AdmittedWorkload c : other.admitted.values()) {
          if (reclaim != QueuePreemptionPolicy.ANY && c.priority() >= wl.priority()) {
            continue;
          }
          if (c.uses(need)) {
            out.add(c);
          }
        }
      }
    }
    return out;
  }

  /** Kueue's {@code candidatesOrdering}: other queues first, lower priority first, most recently admitted first. */
  static Comparator<AdmittedWorkload> candidateOrder(CqState preemptorQueue) {
    return Comparator.comparing((AdmittedWorkload c) -> c.cq == preemptorQueue)
        .thenComparingInt(AdmittedWorkload::priority)
        .thenComparing(AdmittedWorkload::admittedAt, Comparator.reverseOrder())
        .thenComparing(AdmittedWorkload::key);
  }

  private static boolean underNominalIn(CqState cq, boolean[] need) {
    for (int fr = 0; fr < need.length; fr++) {
      if (need[fr] && cq.usage[fr] >= cq.nominal[fr]) {
        return false;
      }
    }
    return true;
  }

  private List<Target> minimalPreemptions(
      Assignment a, CqState cq, List<AdmittedWorkload> candidates, boolean allowBorrowing,
      @Nullable Integer belowPriority) {
    List<Target> targets = new ArrayList<>();
    boolean fits = false;
    for (AdmittedWorkload c : candidates) {
      PreemptionReason reason = PreemptionReason.IN_CLUSTER_QUEUE;
      if (c.cq != cq) {
        reason = PreemptionReason.IN_COHORT_RECLAMATION;
        if (!c.cq.borrowingIn(a.needPreemption())) {
          continue;
        }
        if (belowPriority != null) {
          if (c.priority() >= belowPriority) {
            allowBorrowing = false;
          } else {
            reason = PreemptionReason.IN_COHORT_RECLAIM_WHILE_BORROWING;
          }
        }
      }
      c.cq.addUsage(c.frs, c.values, -1);
      targets.add(new Target(c, reason));
      if (fits(a, cq, allowBorrowing)) {
        fits = true;
        break;
      }
    }
    if (!fits) {
      restore(targets);
      return List.of();
    }
    targets = fillBack(targets, a, cq, allowBorrowing);
    restore(targets);
    return targets;
  }

  /** Walks the targets backwards (all but the last) and keeps only those the preemptor needs gone. */
  private static List<Target> fillBack(List<Target> targets, Assignment a, CqState cq, boolean allowBorrowing) {
    List<Target> kept = new ArrayList<>(targets);
    for (int i = targets.size() - 2; i >= 0; i--) {
      AdmittedWorkload w = targets.get(i).victim();
      w.cq.addUsage(w.frs, w.values, 1);
      if (fits(a, cq, allowBorrowing)) {
        kept.remove(i);
      } else {
        w.cq.addUsage(w.frs, w.values, -1);
      }
    }
    return kept;
  }

  private static void restore(List<Target> targets) {
    for (Target t : targets) {
      t.victim().cq.addUsage(t.victim().frs, t.victim().values, 1);
    }
  }

  /** Kueue's {@code workloadFits}: every requested flavor-resource is available, without borrowing if not allowed. */
  static boolean fits(Assignment a, CqState cq, boolean allowBorrowing) {
    int[] frs = a.frs();
    long[] values = a.values();
    for (int i = 0; i < frs.length; i++) {
      if (!allowBorrowing && cq.borrowingWith(frs[i], values[i])) {
        return false;
      }
      if (values[i] > cq.available(frs[i])) {
        return false;
      }
    }
    return true;
  }

  // ------------------------------------------------------------------------------------------------------------
  // Fair sharing (Kueue pkg/scheduler/preemption fairPreemptions)

  private static final class CandidateQueue {
    final CqState cq;
    long share;
    List<AdmittedWorkload> workloads = new ArrayList<>();

    CandidateQueue(CqState cq, long share) {
      this.cq = cq;
      this.share = share;
    }
  }

  private PriorityQueue<CandidateQueue> queueHeap(List<AdmittedWorkload> candidates, boolean firstOnly) {
    Map<CqState, CandidateQueue> byQueue = new LinkedHashMap<>();
    for (AdmittedWorkload c : candidates) {
      CandidateQueue q = byQueue.get(c.cq);
      if (q == null) {
        q = new CandidateQueue(c.cq, DominantResourceShare.of(c.cq, index));
        q.workloads.add(c);
        byQueue.put(c.cq, q);
      } else if (!firstOnly) {
        q.workloads.add(c);
      }
    }
    PriorityQueue<CandidateQueue> heap = new PriorityQueue<>(
        Comparator.comparingLong((CandidateQueue q) -> -q.share).thenComparing(q -> q.cq.name));
    heap.addAll(byQueue.values());
    return heap;
  }

  private boolean strategyAllows(FairSharingStrategy s, long preemptorNew, long targetOld, long targetNew) {
    return s == FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE
        ? preemptorNew <= targetNew
        : preemptorNew < targetOld;
  }

  private List<Target> fairPreemptions(
      Workload wl, CqState cq, Assignment a, List<AdmittedWorkload> candidates, @Nullable Integer belowPriority) {
    PriorityQueue<CandidateQueue> heap = queueHeap(candidates, false);
    long preemptorShare = DominantResourceShare.of(cq, index, a.frs(), a.values(), 1);
    List<Target> targets = new ArrayList<>();
    List<AdmittedWorkload> retry = new ArrayList<>();
    boolean fits = false;
    while (!heap.isEmpty() && !fits) {
      CandidateQueue q = heap.poll();
      if (q.cq == cq) {
        AdmittedWorkload c = q.workloads.get(0);
        cq.addUsage(c.frs, c.values, -1);
        targets.add(new Target(c, PreemptionReason.IN_CLUSTER_QUEUE));
        if (fits(a, cq, true)) {
          fits = true;
          break;
        }
        preemptorShare = DominantResourceShare.of(cq, index, a.frs(), a.values(), 1);
        q.workloads = q.workloads.subList(1, q.workloads.size());
        if (!q.workloads.isEmpty()) {
          q.share = DominantResourceShare.of(cq, index);
          heap.add(q);
        }
        continue;
      }
      for (int i = 0; i < q.workloads.size(); i++) {
        AdmittedWorkload c = q.workloads.get(i);
        boolean below = belowPriority != null && c.priority() < belowPriority;
        long newShare = DominantResourceShare.of(q.cq, index, c.frs, c.values, -1);
        if (below || strategyAllows(strategies.get(0), preemptorShare, q.share, newShare)) {
          q.cq.addUsage(c.frs, c.values, -1);
          targets.add(new Target(c, below
              ? PreemptionReason.IN_COHORT_RECLAIM_WHILE_BORROWING
              : PreemptionReason.IN_COHORT_FAIR_SHARING));
          if (fits(a, cq, true)) {
            fits = true;
            break;
          }
          q.workloads = q.workloads.subList(i + 1, q.workloads.size());
          if (!q.workloads.isEmpty() && q.cq.borrowingIn(a.needPreemption())) {
            q.share = newShare;
            heap.add(q);
          }
          break;
        }
        retry.add(c);
      }
    }
    if (!fits && strategies.size() > 1) {
      PriorityQueue<CandidateQueue> second = queueHeap(retry, true);
      while (!second.isEmpty() && !fits) {
        CandidateQueue q = second.poll();
        if (strategyAllows(strategies.get(1), preemptorShare, q.share, 0)) {
          AdmittedWorkload c = q.workloads.get(0);
          q.cq.addUsage(c.frs, c.values, -1);
          targets.add(new Target(c, PreemptionReason.IN_COHORT_FAIR_SHARING));
          fits = fits(a, cq, true);
        }
      }
    }
    if (!fits) {
      restore(targets);
      return List.of();
    }
    targets = fillBack(targets, a, cq, true);
    restore(targets);
    return targets;
  }
}
