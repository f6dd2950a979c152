package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.BorrowWithinCohort;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.PreemptionReason;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Kueue's classic preemption ({@code pkg/scheduler/preemption/preemption.go}, with hierarchical cohorts) and its
 * fair-sharing variant.
 *
 * <p>Candidates (classic): with {@code withinClusterQueue} the queue's own lower-priority workloads (or equal priority
 * and newer, for {@code LowerOrNewerEqualPriority}); with {@code reclaimWithinCohort} the workloads of other queues of
 * the cohort tree whose queue, and every cohort between it and the preemptor's, use more than their quota in a
 * flavor-resource needing preemption (lower priority only unless {@code Any}). Only workloads using such a
 * flavor-resource count. Walking up from the preemptor's cohort, the candidates of the first subtrees whose quota
 * covers the request are taken regardless of {@code borrowWithinCohort} (the hierarchical advantage: their quota is
 * closer to the preemptor); the others only if the preemptor does not borrow afterwards, unless {@code
 * borrowWithinCohort} allows preempting below its priority threshold while borrowing. Candidates are taken in the
 * order: hierarchical-advantage candidates, other candidates of other queues, the queue's own; each group ordered by
 * lowest priority, then most recently admitted (the queue's own, with admission fair sharing, first by the highest
 * usage of their LocalQueues: {@link #candidateOrder}).
 *
 * <p>Targets are taken greedily in that order, simulating each removal and skipping candidates whose queue no longer
 * uses more than its quota, until the workload fits (with or without borrowing, the two attempts in Kueue's order);
 * then the set is minimised by walking it backwards and putting back every workload the preemptor does not need.
 * With a {@link TopologyCheck} (a preemptor with pod sets in flavors with a topology), "fits" also means that those pod
 * sets can be placed once the removed candidates' topology assignments no longer take their nodes' room (Kueue's
 * {@code workloadFits} with the TAS snapshot).
 *
 * <p>With fair sharing, candidates are the queue's own and those of every borrowing queue of the cohort tree, and the
 * search visits the target queues in {@link TargetQueueOrdering}'s order, comparing the dominant resource shares of
 * the two sides of the lowest cohort the preemptor's and the target's queue share ({@code fairPreemptions}).
 */
public final class Preemptor {
  private final FlavorResources index;
  private final boolean fairSharing;
  private final List<FairSharingStrategy> strategies;
  /**
   * With admission fair sharing: the usage of a candidate's LocalQueue if its ClusterQueue orders by it, else {@code
   * null} for the candidate; {@code null} without admission fair sharing.
   */
  private java.util.function.@Nullable Function<AdmittedWorkload, @Nullable Double> lqUsage;

  public Preemptor(FlavorResources index, boolean fairSharing, List<FairSharingStrategy> strategies) {
    this.index = index;
    this.fairSharing = fairSharing;
    this.strategies = List.copyOf(strategies);
  }

  /**
   * Enables admission fair sharing's candidate order: {@code lqUsage} gives the usage of a candidate's LocalQueue when
   * its ClusterQueue orders by admission fair sharing, else {@code null}.
   */
  void admissionFairSharing(java.util.function.Function<AdmittedWorkload, @Nullable Double> lqUsage) {
    this.lqUsage = lqUsage;
  }

  /**
   * Kueue's preemption oracle ({@code preemption_oracle.go} {@code SimulatePreemption}): whether preemption can free
   * {@code value} of {@code fr} for {@code wl} in {@code cq}: {@link Assignment#NO_CANDIDATES} if it finds nothing to
   * preempt, {@link Assignment#PREEMPT} if some target is in {@code cq} itself, else {@link Assignment#RECLAIM} (every
   * target is in another queue of the cohort, which borrows the quota); with the borrowing level of the request once
   * the targets are gone (their usage is removed and put back; nothing is evicted).
   */
  public FlavorAssigner.Simulation simulate(Workload wl, CqState cq, int fr, long value) {
    boolean[] need = new boolean[index.size()];
    need[fr] = true;
    Assignment single = new Assignment(Assignment.PREEMPT, cq.borrowingLevel(fr, value), List.of(),
        new int[] {fr}, new long[] {value}, need, "");
    List<Target> targets = targets(wl, cq, single);
    if (targets.isEmpty()) {
      return new FlavorAssigner.Simulation(Assignment.NO_CANDIDATES, cq.borrowingLevel(fr, value));
    }
    boolean inQueue = false;
    for (Target t : targets) {
      inQueue |= t.victim().cq == cq;
      t.victim().cq.addUsage(t.victim().frs, t.victim().values, -1);
    }
    int borrowingAfter = cq.borrowingLevel(fr, value);
    for (Target t : targets) {
      t.victim().cq.addUsage(t.victim().frs, t.victim().values, 1);
    }
    return new FlavorAssigner.Simulation(inQueue ? Assignment.PREEMPT : Assignment.RECLAIM, borrowingAfter);
  }

  /**
   * Whether a workload's pod sets in flavors with a topology fit once {@code removed} are gone (Kueue's {@code
   * FindTopologyAssignmentsForWorkload} on the TAS snapshot with the candidates' usage removed, in {@code
   * workloadFits}).
   */
  @FunctionalInterface
  public interface TopologyCheck {
    /** A check for workloads with no pod set in a flavor with a topology: quota alone decides. */
    TopologyCheck NONE = removed -> true;

    boolean fits(Set<AdmittedWorkload> removed);
  }

  /** The minimal set of workloads to evict so that {@code wl} fits in {@code cq} with {@code a}; empty if none. */
  public List<Target> targets(Workload wl, CqState cq, Assignment a) {
    return targets(wl, cq, a, TopologyCheck.NONE);
  }

  /**
   * As {@link #targets(Workload, CqState, Assignment)}; the workload fits only when its quota fits and {@code
   * topology} accepts the candidates removed so far (Kueue's preemption for topology-aware scheduling: removing a
   * candidate frees its quota and its nodes' room alike).
   */
  public List<Target> targets(Workload wl, CqState cq, Assignment a, TopologyCheck topology) {
    Search s = new Search(a, cq, topology);
    if (!fairSharing) {
      return classicalPreemptions(wl, cq, a, s);
    }
    List<AdmittedWorkload> candidates = findCandidates(wl, cq, a.needPreemption());
    if (candidates.isEmpty()) {
      return List.of();
    }
    candidates.sort(candidateOrder(cq));
    return fairPreemptions(cq, a, s, candidates);
  }

  /**
   * One target search: the preemptor's assignment, its queue, the topology check and the candidates removed so far
   * (their quota usage is taken out of their queues while they are removed).
   */
  private static final class Search {
    final Assignment a;
    final CqState cq;
    final TopologyCheck topology;
    final Set<AdmittedWorkload> removed = new HashSet<>();

    Search(Assignment a, CqState cq, TopologyCheck topology) {
      this.a = a;
      this.cq = cq;
      this.topology = topology;
    }

    void remove(AdmittedWorkload v) {
      v.cq.addUsage(v.frs, v.values, -1);
      removed.add(v);
    }

    void putBack(AdmittedWorkload v) {
      v.cq.addUsage(v.frs, v.values, 1);
      removed.remove(v);
    }

    void putBack(List<Target> targets) {
      for (Target t : targets) {
        putBack(t.victim());
      }
    }

    /** Kueue's {@code workloadFits}: the quota, then the topology. */
    boolean fits(boolean allowBorrowing) {
      return Preemptor.fits(a, cq, allowBorrowing) && topology.fits(removed);
    }
  }

  // ------------------------------------------------------------------------------------------------------------
  // Classical preemption with hierarchical cohorts (Kueue pkg/scheduler/preemption/preemption.go
  // classicalPreemptions, classical/candidate_generator.go, classical/hierarchical_preemption.go)

  /** How a candidate may be preempted (Kueue's {@code preemptionVariant}). */
  private enum Variant {
    WITHIN_CQ(PreemptionReason.IN_CLUSTER_QUEUE),
    /** The preemptor is closer to the quota the candidate uses: any priority the reclaim policy allows. */
    HIERARCHICAL_RECLAIM(PreemptionReason.IN_COHORT_RECLAMATION),
    /** Only if the preemptor's queue does not borrow once the candidates are gone. */
    RECLAIM_WITHOUT_BORROWING(PreemptionReason.IN_COHORT_RECLAMATION),
    RECLAIM_WHILE_BORROWING(PreemptionReason.IN_COHORT_RECLAIM_WHILE_BORROWING);

    final PreemptionReason reason;

    Variant(PreemptionReason reason) {
      this.reason = reason;
    }
  }

  /** A candidate, the lowest common ancestor of its queue and the preemptor's ({@code null} in the same queue). */
  private record Candidate(AdmittedWorkload victim, @Nullable CohortState lca, Variant variant) {}

  private List<Target> classicalPreemptions(Workload wl, CqState cq, Assignment a, Search s) {
    boolean[] need = a.needPreemption();
    List<Candidate> sameQueue = new ArrayList<>();
    if (cq.spec.preemption().withinClusterQueue() != QueuePreemptionPolicy.NEVER) {
      addCandidates(wl, cq, cq, null, false, need, sameQueue);
    }
    List<Candidate> hierarchy = new ArrayList<>();
    List<Candidate> byPriority = new ArrayList<>();
    collectForHierarchicalReclaim(wl, cq, a, need, hierarchy, byPriority);
    Comparator<Candidate> order = Comparator.comparing(Candidate::victim, candidateOrder(cq));
    sameQueue.sort(order);
    hierarchy.sort(order);
    byPriority.sort(order);
    // Kueue puts evicted candidates first; FleetKit evicts its targets at once, so no candidate is already evicted.
    List<Candidate> all = new ArrayList<>(hierarchy.size() + byPriority.size() + sameQueue.size());
    all.addAll(hierarchy);
    all.addAll(byPriority);
    all.addAll(sameQueue);
    boolean borrowForbidden = cq.spec.preemption().borrowWithinCohort().policy() == BorrowWithinCohort.Policy.NEVER;
    boolean[] attempts;
    if ((hierarchy.isEmpty() && byPriority.isEmpty()) || (borrowForbidden && !underNominalIn(cq, need))) {
      attempts = new boolean[] {true};
    } else if (borrowForbidden && hierarchy.isEmpty()) {
      attempts = new boolean[] {false, true};
    } else {
      attempts = new boolean[] {true, false};
    }
    for (boolean allowBorrowing : attempts) {
      List<Target> targets = new ArrayList<>();
      for (Candidate c : all) {
        if (!valid(c, cq, need, allowBorrowing)) {
          continue;
        }
        AdmittedWorkload v = c.victim();
        s.remove(v);
        targets.add(new Target(v, c.variant().reason));
        if (s.fits(allowBorrowing)) {
          targets = fillBack(targets, s, allowBorrowing);
          s.putBack(targets);
          return targets;
        }
      }
      s.putBack(targets);
    }
    return List.of();
  }

  /** Kueue's {@code candidateIsValid}: earlier preemptions may have brought the candidate's quota back in line. */
  private static boolean valid(Candidate c, CqState cq, boolean[] need, boolean allowBorrowing) {
    CqState other = c.victim().cq;
    if (other == cq) {
      return true;
    }
    if (allowBorrowing && c.variant() == Variant.RECLAIM_WITHOUT_BORROWING) {
      return false;
    }
    if (!other.borrowingIn(need)) {
      return false;
    }
    for (CohortState node = other.cohort; node != null && node != c.lca(); node = node.parent) {
      if (node.withinNominalIn(need)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Kueue's {@code collectCandidatesForHierarchicalReclaim}: walks from the preemptor's cohort to the root, collecting
   * the candidates of each subtree not visited yet; once a subtree's quota covers the request, the preemptor has the
   * hierarchical advantage over every workload using that subtree's quota.
   */
  private static void collectForHierarchicalReclaim(Workload wl, CqState cq, Assignment a, boolean[] need,
      List<Candidate> hierarchy, List<Candidate> byPriority) {
    if (cq.cohort == null || cq.spec.preemption().reclaimWithinCohort() == QueuePreemptionPolicy.NEVER) {
      return;
    }
    int[] frs = a.frs();
    long[] remaining = new long[frs.length];
    boolean advantage = true;
    for (int i = 0; i < frs.length; i++) {
      int fr = frs[i];
      advantage &= cq.nominal[fr] >= cq.usage[fr] + a.values()[i];
      remaining[i] = Math.max(0, a.values()[i] - cq.localAvailable(fr));
    }
    CohortState previous = null;
    for (CohortState node = cq.cohort; node != null; node = node.parent) {
      collectInSubtree(wl, cq, node, node, previous, advantage, need, advantage ? hierarchy : byPriority);
      boolean fits = true;
      for (int i = 0; i < frs.length; i++) {
        int fr = frs[i];
        fits &= node.quota[fr] >= node.usage[fr] + remaining[i];
        remaining[i] = Math.max(0, remaining[i] - node.localAvailable(fr));
      }
      advantage |= fits;
      previous = node;
    }
  }

  /** Visits the subtrees above their quota, except the one already visited, and collects their candidates. */
  private static void collectInSubtree(Workload wl, CqState cq, CohortState current, CohortState subtreeRoot,
      @Nullable CohortState skip, boolean advantage, boolean[] need, List<Candidate> out) {
    for (CohortState child : current.children) {
      if (child == skip || child.withinNominalIn(need)) {
        continue;
      }
      collectInSubtree(wl, cq, child, subtreeRoot, skip, advantage, need, out);
    }
    for (CqState member : current.members) {
      if (member != cq && member.borrowingIn(need)) {
        addCandidates(wl, cq, member, subtreeRoot, advantage, need, out);
      }
    }
  }

  private static void addCandidates(Workload wl, CqState cq, CqState from, @Nullable CohortState lca,
      boolean advantage, boolean[] need, List<Candidate> out) {
    for (AdmittedWorkload c : from.admitted.values()) {
      Variant v = classify(wl, cq, c, advantage, need);
      if (v != null) {
        out.add(new Candidate(c, lca, v));
      }
    }
  }

  /** Kueue's {@code classifyPreemptionVariant}; {@code null} when the candidate cannot be preempted. */
  private static @Nullable Variant classify(
      Workload wl, CqState cq, AdmittedWorkload c, boolean advantage, boolean[] need) {
    if (!c.uses(need)) {
      return null;
    }
    boolean sameQueue = c.cq == cq;
    QueuePreemptionPolicy policy = sameQueue
        ? cq.spec.preemption().withinClusterQueue()
        : cq.spec.preemption().reclaimWithinCohort();
    if (!satisfies(policy, wl, c)) {
      return null;
    }
    if (sameQueue) {
      return Variant.WITHIN_CQ;
    }
    if (advantage) {
      return Variant.HIERARCHICAL_RECLAIM;
    }
    BorrowWithinCohort bwc = cq.spec.preemption().borrowWithinCohort();
    if (bwc.policy() == BorrowWithinCohort.Policy.NEVER || c.priority() >= wl.priority()) {
      return Variant.RECLAIM_WITHOUT_BORROWING;
    }
    Integer threshold = bwc.maxPriorityThreshold();
    if (threshold != null && c.priority() > threshold) {
      return Variant.RECLAIM_WITHOUT_BORROWING;
    }
    return Variant.RECLAIM_WHILE_BORROWING;
  }

  /** Kueue's {@code SatisfiesPreemptionPolicy}. */
  private static boolean satisfies(QueuePreemptionPolicy policy, Workload wl, AdmittedWorkload c) {
    boolean lower = wl.priority() > c.priority();
    return switch (policy) {
      case LOWER_PRIORITY -> lower;
      case LOWER_OR_NEWER_EQUAL_PRIORITY -> lower
          || (wl.priority() == c.priority() && wl.creationTime().isBefore(c.workload.creationTime()));
      case ANY -> true;
      case NEVER -> false;
    };
  }

  // ------------------------------------------------------------------------------------------------------------

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
      List<CqState> tree = new ArrayList<>();
      cohort.root().collectQueues(tree);
      for (CqState other : tree) {
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

  /**
   * Kueue's {@code candidatesOrdering}: other queues first; with admission fair sharing, in the preemptor's queue the
   * workloads of the LocalQueue with the higher usage first; lower priority first, most recently admitted first.
   * Kueue also compares the usage of two candidates of one other ClusterQueue; mixed with the priority order between
   * other queues that is not a total order (which Java's sort refuses), so here the usage orders the preemptor's
   * queue only.
   */
  Comparator<AdmittedWorkload> candidateOrder(CqState preemptorQueue) {
    Comparator<AdmittedWorkload> order = Comparator.comparing((AdmittedWorkload c) -> c.cq == preemptorQueue);
    java.util.function.Function<AdmittedWorkload, @Nullable Double> usage = lqUsage;
    if (usage != null) {
      order = order.thenComparingDouble(c -> {
        Double u = c.cq == preemptorQueue ? usage.apply(c) : null;
        return u == null ? 0.0 : 0.0 - u; // higher usage first (0.0 - u: no negative zero)
      });
    }
    return order.thenComparingInt(AdmittedWorkload::priority)
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

  /** Walks the targets backwards (all but the last) and keeps only those the preemptor needs gone. */
  private static List<Target> fillBack(List<Target> targets, Search s, boolean allowBorrowing) {
    List<Target> kept = new ArrayList<>(targets);
    for (int i = targets.size() - 2; i >= 0; i--) {
      AdmittedWorkload w = targets.get(i).victim();
      s.putBack(w);
      if (s.fits(allowBorrowing)) {
        kept.remove(i);
      } else {
        s.remove(w);
      }
    }
    return kept;
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
  // Fair sharing (Kueue pkg/scheduler/preemption/preemption.go fairPreemptions, runFirstFsStrategy,
  // runSecondFsStrategy; the order of target queues and the shares compared: TargetQueueOrdering)

  private static boolean strategyAllows(FairSharingStrategy s, Drs preemptorNew, Drs targetOld, Drs targetNew) {
    return s == FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE
        ? Drs.compare(preemptorNew, targetNew) <= 0
        : Drs.compare(preemptorNew, targetOld) < 0;
  }

  /**
   * The targets with fair sharing. The preemptor's usage counts in every share while the search runs. Queues are
   * visited in {@link TargetQueueOrdering}'s order: in the preemptor's own queue its candidates go one by one
   * ({@code InClusterQueue}); while the preemptor's queue stays within its nominal quota in the flavor-resources that
   * need preemption (Kueue's {@code FairSharingPreemptWithinNominal}), any candidate goes ({@code
   * InCohortReclamation}); otherwise a candidate goes if the first strategy holds between the preemptor's side and the
   * target's side of their lowest common cohort ({@code InCohortFairSharing}), and the search picks the next queue
   * again. Candidates the first strategy refused are tried with the second, one per queue.
   */
  private List<Target> fairPreemptions(CqState cq, Assignment a, Search s, List<AdmittedWorkload> candidates) {
    List<Target> targets = new ArrayList<>();
    boolean fits;
    cq.addUsage(a.frs(), a.values(), 1);
    try {
      List<AdmittedWorkload> retry = new ArrayList<>();
      fits = firstStrategy(cq, a, s, candidates, targets, retry);
      if (!fits && strategies.size() > 1) {
        fits = secondStrategy(cq, a, s, retry, targets);
      }
    } finally {
      cq.addUsage(a.frs(), a.values(), -1);
    }
    if (!fits) {
      s.putBack(targets);
      return List.of();
    }
    targets = fillBack(targets, s, true);
    s.putBack(targets);
    return targets;
  }

  /** Kueue's {@code workloadFitsForFairSharing}: whether the preemptor fits, its own usage taken out meanwhile. */
  private static boolean fitsForFairSharing(CqState cq, Assignment a, Search s) {
    cq.addUsage(a.frs(), a.values(), -1);
    try {
      return s.fits(true);
    } finally {
      cq.addUsage(a.frs(), a.values(), 1);
    }
  }

  private boolean firstStrategy(CqState cq, Assignment a, Search s, List<AdmittedWorkload> candidates,
      List<Target> targets, List<AdmittedWorkload> retry) {
    TargetQueueOrdering ordering = new TargetQueueOrdering(cq, candidates, index, candidateOrder(cq));
    boolean withinNominal = !cq.borrowingIn(a.needPreemption());
    for (CqState target = ordering.next(); target != null; target = ordering.next()) {
      if (target == cq || withinNominal) {
        AdmittedWorkload c = ordering.pop(target);
        s.remove(c);
        targets.add(new Target(c,
            target == cq ? PreemptionReason.IN_CLUSTER_QUEUE : PreemptionReason.IN_COHORT_RECLAMATION));
        if (fitsForFairSharing(cq, a, s)) {
          return true;
        }
        continue;
      }
      Drs preemptorNew = ordering.preemptorShare(target);
      Drs targetOld = ordering.targetShare(target);
      if (Double.isInfinite(preemptorNew.weightedShare()) && !Double.isInfinite(targetOld.weightedShare())) {
        // Kueue's fsStrategyUnsatisfiable: no candidate of this queue can pass; the second strategy may
        while (ordering.hasWorkload(target)) {
          retry.add(ordering.pop(target));
        }
        continue;
      }
      while (ordering.hasWorkload(target)) {
        AdmittedWorkload c = ordering.pop(target);
        Drs targetNew = ordering.targetShareWithout(target, c);
        if (strategyAllows(strategies.get(0), preemptorNew, targetOld, targetNew)) {
          s.remove(c);
          targets.add(new Target(c, PreemptionReason.IN_COHORT_FAIR_SHARING));
          if (fitsForFairSharing(cq, a, s)) {
            return true;
          }
          break; // the shares changed: the next queue may be another
        }
        retry.add(c);
      }
    }
    return false;
  }

  private boolean secondStrategy(CqState cq, Assignment a, Search s, List<AdmittedWorkload> retry,
      List<Target> targets) {
    TargetQueueOrdering ordering = new TargetQueueOrdering(cq, retry, index, candidateOrder(cq));
    for (CqState target = ordering.next(); target != null; target = ordering.next()) {
      boolean passed = strategyAllows(strategies.get(1), ordering.preemptorShare(target),
          ordering.targetShare(target), Drs.NEGATIVE);
      // the strategy does not depend on the candidate: the first one goes
      AdmittedWorkload c = ordering.pop(target);
      if (passed) {
        s.remove(c);
        targets.add(new Target(c, PreemptionReason.IN_COHORT_FAIR_SHARING));
        if (fitsForFairSharing(cq, a, s)) {
          return true;
        }
      }
      ordering.drop(target);
    }
    return false;
  }
}
