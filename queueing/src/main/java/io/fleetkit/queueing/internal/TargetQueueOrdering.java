package io.fleetkit.queueing.internal;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The order in which fair-sharing preemption visits the ClusterQueues of a cohort tree (Kueue's {@code
 * TargetClusterQueueOrdering} and {@code TargetClusterQueue}, {@code pkg/scheduler/preemption/fairsharing}): from the
 * root, each step descends into the child with the highest dominant resource share, a Cohort when its share is at
 * least the highest ClusterQueue's, until it reaches a ClusterQueue. Nodes that do not borrow leave the search (the
 * preemptor's queue and the Cohorts on its path stay while they have candidates), as do queues without candidates
 * left; two queues of one share go by their first candidates' order.
 *
 * <p>The shares that decide a preemption are compared at the <em>almost lowest common ancestors</em>: the children of
 * the lowest Cohort that holds both the preemptor's and the target's queue, on the preemptor's and on the target's
 * side ({@link #preemptorShare}, {@link #targetShare}). In a flat cohort those are the two ClusterQueues.
 *
 * <p>Not thread-safe; one instance per preemption search.
 */
final class TargetQueueOrdering {
  private final CqState preemptor;
  private final FlavorResources index;
  private final Comparator<AdmittedWorkload> candidateOrder;
  private final Set<CohortState> preemptorPath = new HashSet<>();
  private final Map<CqState, Deque<AdmittedWorkload>> byQueue = new LinkedHashMap<>();
  private final Set<CqState> prunedQueues = new HashSet<>();
  private final Set<CohortState> prunedCohorts = new HashSet<>();

  /** {@code candidates} in Kueue's candidate order. */
  TargetQueueOrdering(CqState preemptor, List<AdmittedWorkload> candidates, FlavorResources index,
      Comparator<AdmittedWorkload> candidateOrder) {
    this.preemptor = preemptor;
    this.index = index;
    this.candidateOrder = candidateOrder;
    for (CohortState c = preemptor.cohort; c != null; c = c.parent) {
      preemptorPath.add(c);
    }
    for (AdmittedWorkload c : candidates) {
      byQueue.computeIfAbsent(c.cq, q -> new ArrayDeque<>()).add(c);
    }
  }

  /** The next queue to take a candidate from, or {@code null} when none is left (Kueue's {@code Iter}). */
  @Nullable CqState next() {
    CohortState cohort = preemptor.cohort;
    if (cohort == null) {
      return !prunedQueues.contains(preemptor) && hasWorkload(preemptor) ? preemptor : null;
    }
    CohortState root = cohort.root();
    while (!prunedCohorts.contains(root)) {
      CqState target = nextTarget(root);
      if (target != null) {
        return target;
      }
    }
    return null;
  }

  boolean hasWorkload(CqState cq) {
    Deque<AdmittedWorkload> q = byQueue.get(cq);
    return q != null && !q.isEmpty();
  }

  /** Takes the first remaining candidate of {@code cq}. */
  AdmittedWorkload pop(CqState cq) {
    return byQueue.get(cq).removeFirst();
  }

  /** Leaves {@code cq} out of the rest of the search (Kueue's {@code DropQueue}). */
  void drop(CqState cq) {
    prunedQueues.add(cq);
  }

  private @Nullable CqState nextTarget(CohortState cohort) {
    CqState highestCq = null;
    Drs highestCqShare = Drs.NEGATIVE;
    for (CqState cq : cohort.members) {
      if (prunedQueues.contains(cq)) {
        continue;
      }
      Drs share = DominantResourceShare.of(cq, index);
      if ((!share.borrowing() && cq != preemptor) || !hasWorkload(cq)) {
        prunedQueues.add(cq);
        continue;
      }
      int c = Drs.compare(share, highestCqShare);
      if (c == 0) {
        if (candidateOrder.compare(byQueue.get(cq).peekFirst(), byQueue.get(highestCq).peekFirst()) < 0) {
          highestCq = cq;
        }
      } else if (c > 0) {
        highestCq = cq;
        highestCqShare = share;
      }
    }
    CohortState highestCohort = null;
    Drs highestCohortShare = Drs.NEGATIVE;
    for (CohortState child : cohort.children) {
      if (prunedCohorts.contains(child)) {
        continue;
      }
      Drs share = DominantResourceShare.of(child, index);
      if (!share.borrowing() && !preemptorPath.contains(child)) {
        prunedCohorts.add(child);
      } else if (Drs.compare(share, highestCohortShare) >= 0) {
        highestCohort = child;
        highestCohortShare = share;
      }
    }
    if (highestCohort == null && highestCq == null) {
      prunedCohorts.add(cohort);
      return null;
    }
    if (Drs.compare(highestCohortShare, highestCqShare) >= 0) {
      return nextTarget(highestCohort);
    }
    return highestCq;
  }

  /** The share, now, of the preemptor's side of the lowest cohort it shares with {@code target}. */
  Drs preemptorShare(CqState target) {
    return shareBelow(preemptor, lowestCommonAncestor(target));
  }

  /** The share, now, of {@code target}'s side of the lowest cohort it shares with the preemptor. */
  Drs targetShare(CqState target) {
    return shareBelow(target, lowestCommonAncestor(target));
  }

  /** {@link #targetShare} if {@code victim} were gone. */
  Drs targetShareWithout(CqState target, AdmittedWorkload victim) {
    target.addUsage(victim.frs, victim.values, -1);
    try {
      return targetShare(target);
    } finally {
      target.addUsage(victim.frs, victim.values, 1);
    }
  }

  private CohortState lowestCommonAncestor(CqState target) {
    for (CohortState a = target.cohort; a != null; a = a.parent) {
      if (preemptorPath.contains(a)) {
        return a;
      }
    }
    throw new IllegalStateException("ClusterQueue " + target.name + " shares no cohort with " + preemptor.name);
  }

  /** The share of {@code cq}'s ancestor (or itself) that is a child of {@code lca}. */
  private Drs shareBelow(CqState cq, CohortState lca) {
    if (cq.cohort == lca) {
      return DominantResourceShare.of(cq, index);
    }
    CohortState c = cq.cohort;
    while (c.parent != lca) {
      c = c.parent;
    }
    return DominantResourceShare.of(c, index);
  }
}
