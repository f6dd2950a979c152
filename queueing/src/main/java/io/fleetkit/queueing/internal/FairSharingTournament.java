package io.fleetkit.queueing.internal;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a fair-sharing cycle considers its heads (Kueue's {@code fairSharingIterator}, {@code
 * pkg/scheduler/fair_sharing_iterator.go}): each {@link #pop} runs a tournament over one cohort tree, from its root,
 * with the usage of that moment (what earlier heads of the cycle took counts). Every cohort nominates the winner among
 * its children's candidates (a ClusterQueue's candidate is its head, a child cohort's the winner of its own
 * tournament), comparing the children as they would be after admitting their candidate:
 *
 * <ol>
 *   <li>a child that would not borrow from this cohort on a flavor-resource its candidate requests (Kueue's
 *       {@code FairSharingPrioritizeNonBorrowing}, on by default);
 *   <li>the lower dominant resource share of the child with its candidate admitted ({@link Drs#compare});
 *   <li>the candidates' queue order: higher priority, then older.
 * </ol>
 *
 * A head whose queue has no cohort comes out alone. Trees are served in the order of the first remaining candidate
 * of {@code entries} (trees share no quota).
 *
 * <p>Not thread-safe; one instance per cycle.
 *
 * @param <E> the scheduler's entry
 */
final class FairSharingTournament<E extends FairSharingTournament.Candidate> {
  /** A head with its assignment's usage. */
  interface Candidate {
    CqState cq();

    PendingWorkload pending();

    /** The flavor-resources of the assignment, ascending. */
    int[] frs();

    long[] values();
  }

  private final FlavorResources index;
  private final Map<CqState, E> remaining = new LinkedHashMap<>();
  /** Per candidate, per cohort: the share of the cohort's child on the candidate's path, with the candidate in. */
  private final Map<E, Map<CohortState, Drs>> shares = new HashMap<>();

  FairSharingTournament(FlavorResources index, List<E> entries) {
    this.index = index;
    for (E e : entries) {
      remaining.put(e.cq(), e);
    }
  }

  boolean hasNext() {
    return !remaining.isEmpty();
  }

  E pop() {
    E first = remaining.values().iterator().next();
    CohortState cohort = first.cq().cohort;
    if (cohort == null) {
      remaining.remove(first.cq());
      return first;
    }
    CohortState root = cohort.root();
    computeShares(root);
    E winner = run(root);
    remaining.remove(winner.cq());
    return winner;
  }

  /** Kueue's {@code computeDRS}: each candidate's usage added in turn, the shares on its path read, and taken out. */
  private void computeShares(CohortState root) {
    shares.clear();
    List<CqState> queues = new ArrayList<>();
    root.collectQueues(queues);
    for (CqState cq : queues) {
      E e = remaining.get(cq);
      if (e == null) {
        continue;
      }
      cq.addUsage(e.frs(), e.values(), 1);
      try {
        Map<CohortState, Drs> path = new HashMap<>();
        Drs share = DominantResourceShare.of(cq, index);
        for (CohortState a = cq.cohort; a != null; a = a.parent) {
          path.put(a, share);
          if (a.parent != null) { // the root's own share is compared under no parent
            share = DominantResourceShare.of(a, index);
          }
        }
        shares.put(e, path);
      } finally {
        cq.addUsage(e.frs(), e.values(), -1);
      }
    }
  }

  /** Kueue's {@code runTournament}: the best candidate of {@code cohort}'s subtree, or {@code null} if it has none. */
  private E run(CohortState cohort) {
    E best = null;
    for (CohortState child : cohort.children) {
      E candidate = run(child);
      if (candidate != null && (best == null || less(candidate, best, cohort))) {
        best = candidate;
      }
    }
    for (CqState member : cohort.members) {
      E candidate = remaining.get(member);
      if (candidate != null && (best == null || less(candidate, best, cohort))) {
        best = candidate;
      }
    }
    return best;
  }

  private boolean less(E a, E b, CohortState parent) {
    Drs da = shares.get(a).get(parent);
    Drs db = shares.get(b).get(parent);
    boolean aBorrows = da.borrowingOn(a.frs(), a.values());
    boolean bBorrows = db.borrowingOn(b.frs(), b.values());
    if (aBorrows != bBorrows) {
      return !aBorrows;
    }
    int c = Drs.compare(da, db);
    if (c != 0) {
      return c < 0;
    }
    return ORDER.compare(a.pending(), b.pending()) < 0;
  }

  private static final Comparator<PendingWorkload> ORDER = PendingWorkload.ORDER;
}
