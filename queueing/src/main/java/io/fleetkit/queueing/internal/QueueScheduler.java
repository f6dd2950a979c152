package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceNames;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.CycleResult;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.Preemption;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kueue's scheduler loop ({@code pkg/scheduler/scheduler.go}), one {@link #schedule() cycle} at a time:
 *
 * <ol>
 *   <li>take the head of every ClusterQueue's queue;
 *   <li>nominate: assign flavors, and find preemption targets for heads that fit only by preemption;
 *   <li>order the heads: those that do not borrow first, then (with fair sharing) the lowest dominant resource share
 *       after admission, then higher priority, then older;
 *   <li>admit the heads that still fit after the admissions and preemptions earlier in the cycle; issue the
 *       preemptions of a head whose targets no earlier head took and that fits once they are gone (the preemptor is
 *       admitted in a later cycle, once the quota is free); a head that needs preemption but has no candidates holds
 *       what it could use for the rest of the cycle unless its queue can always reclaim ({@code reclaimWithinCohort:
 *       Any}); park or requeue the rest per the queueing strategy.
 * </ol>
 */
public final class QueueScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(QueueScheduler.class);
  /** Kueue's {@code ErrNamespaceMismatch}. */
  static final String NAMESPACE_MISMATCH = "workload namespace doesn't match ClusterQueue selector";

  private final Clock clock;
  private final FlavorResources index = new FlavorResources();
  private final Map<String, ResourceFlavor> flavors;
  private final Map<String, CqState> queues = new LinkedHashMap<>();
  private final Map<String, CohortState> cohorts = new LinkedHashMap<>();
  private final Map<String, LocalQueue> localQueues = new HashMap<>();
  private final Map<String, CqState> pendingIn = new HashMap<>();
  private final Map<String, AdmittedWorkload> admitted = new HashMap<>();
  private final Map<String, Map<String, String>> namespaceLabels;
  private final FlavorAssigner assigner;
  private final Preemptor preemptor;
  private final boolean fairSharing;
  private long sequence;
  private int parkedInLastCycle;

  public QueueScheduler(
      Clock clock,
      List<ResourceFlavor> flavorList,
      List<ClusterQueue> clusterQueues,
      List<Cohort> cohortList,
      List<LocalQueue> locals,
      boolean fairSharing,
      List<FairSharingStrategy> strategies) {
    this(clock, flavorList, clusterQueues, cohortList, locals, Map.of(), fairSharing, strategies);
  }

  /**
   * @param namespaces the labels of the namespaces ClusterQueues' namespace selectors match (a namespace not given
   *     has no labels)
   */
  public QueueScheduler(
      Clock clock,
      List<ResourceFlavor> flavorList,
      List<ClusterQueue> clusterQueues,
      List<Cohort> cohortList,
      List<LocalQueue> locals,
      Map<String, Map<String, String>> namespaces,
      boolean fairSharing,
      List<FairSharingStrategy> strategies) {
    this.clock = clock;
    this.fairSharing = fairSharing;
    this.flavors = new LinkedHashMap<>();
    for (ResourceFlavor f : flavorList) {
      if (flavors.put(f.name(), f) != null) {
        throw new IllegalArgumentException("admission engine: resource flavor " + f.name() + " added twice");
      }
    }
    for (ClusterQueue cq : clusterQueues) {
      indexQuotas(cq.resourceGroups());
    }
    for (Cohort c : cohortList) {
      indexQuotas(c.resourceGroups());
    }
    CohortTree.build(cohortList, index, cohorts);
    for (ClusterQueue cq : clusterQueues) {
      if (queues.containsKey(cq.name())) {
        throw new IllegalArgumentException("admission engine: ClusterQueue " + cq.name() + " added twice");
      }
      String cohortName = cq.cohort();
      CohortState cohort = cohortName == null
          ? null
          : cohorts.computeIfAbsent(cohortName, n -> new CohortState(n, index.size(), index.resourceCount()));
      CqState state = new CqState(cq, queues.size(), cohort, index, new PendingQueue(cq.queueingStrategy()));
      queues.put(cq.name(), state);
      if (cohort != null) {
        cohort.members.add(state);
      }
    }
    CohortTree.sumQuotas(cohorts.values(), index);
    if (fairSharing) {
      for (CohortState c : cohorts.values()) {
        if (c.parent != null || !c.children.isEmpty() || CohortTree.hasOwnQuota(c)) {
          throw new IllegalArgumentException("admission engine: fair sharing over a cohort tree or cohort quotas is "
              + "not supported (Cohort " + c.name + ")");
        }
      }
    }
    for (LocalQueue lq : locals) {
      if (!queues.containsKey(lq.clusterQueue())) {
        throw new IllegalArgumentException("LocalQueue " + lq.key() + ": spec.clusterQueue \"" + lq.clusterQueue()
            + "\" must name a known ClusterQueue");
      }
      if (localQueues.put(lq.key(), lq) != null) {
        throw new IllegalArgumentException("admission engine: LocalQueue " + lq.key() + " added twice");
      }
    }
    updateMissingFlavors();
    this.namespaceLabels = new HashMap<>(namespaces);
    this.preemptor = new Preemptor(index, fairSharing, strategies);
    this.assigner = new FlavorAssigner(index, flavors, fairSharing, preemptor::simulate);
  }

  private void indexQuotas(List<ResourceGroup> groups) {
    for (ResourceGroup g : groups) {
      for (FlavorQuotas fq : g.flavors()) {
        for (FlavorResourceQuota q : fq.resources()) {
          index.add(fq.name(), q.name());
        }
      }
    }
  }

  /**
   * Marks every ClusterQueue that names a flavor the engine does not have as inactive (Kueue keeps such a queue
   * pending, not admitting, until the flavor is created), and the others as active.
   */
  private void updateMissingFlavors() {
    for (CqState cq : queues.values()) {
      List<String> missing = new ArrayList<>();
      for (String f : cq.spec.flavorNames()) {
        if (!flavors.containsKey(f) && !missing.contains(f)) {
          missing.add(f);
        }
      }
      if (!missing.equals(cq.missingFlavors)) {
        LOG.debug("ClusterQueue {}: missing flavors {}", cq.name, missing);
      }
      cq.missingFlavors = List.copyOf(missing);
    }
  }

  /**
   * Adds a ResourceFlavor; ClusterQueues that named it, and miss no other flavor, become active.
   *
   * @throws IllegalArgumentException if the engine already has a flavor of that name
   */
  public void addResourceFlavor(ResourceFlavor flavor) {
    if (flavors.containsKey(flavor.name())) {
      throw new IllegalArgumentException("admission engine: resource flavor " + flavor.name() + " already exists");
    }
    flavors.put(flavor.name(), flavor);
    updateMissingFlavors();
  }

  /** Kueue's inactive reason of {@code clusterQueue}, or {@code null} if it admits workloads. */
  public @Nullable String inactiveReason(String clusterQueue) {
    return requireQueue(clusterQueue).inactiveReason();
  }

  /**
   * Sets the labels of {@code namespace}, which ClusterQueues' namespace selectors match, and, if they changed,
   * requeues every parked workload (as Kueue requeues inadmissible workloads when a namespace changes).
   */
  public void namespaceLabels(String namespace, Map<String, String> labels) {
    Map<String, String> copy = Map.copyOf(labels);
    if (copy.equals(namespaceLabels.put(namespace, copy))) {
      return;
    }
    for (CqState cq : queues.values()) {
      cq.pending.unpark();
    }
  }

  public @Nullable ResourceFlavor resourceFlavor(String name) {
    return flavors.get(name);
  }

  public @Nullable LocalQueue localQueue(String namespace, String name) {
    return localQueues.get(namespace + "/" + name);
  }

  public FlavorResources index() {
    return index;
  }

  public @Nullable CqState queue(String name) {
    return queues.get(name);
  }

  public FlavorAssigner assigner() {
    return assigner;
  }

  public Preemptor preemptor() {
    return preemptor;
  }

  private CqState requireQueue(String name) {
    CqState q = queues.get(name);
    if (q == null) {
      throw new IllegalArgumentException("admission engine: ClusterQueue \"" + name + "\" is not known");
    }
    return q;
  }

  private CqState queueOf(Workload wl) {
    LocalQueue lq = localQueues.get(wl.namespace() + "/" + wl.queueName());
    if (lq == null) {
      throw new IllegalArgumentException("Workload " + wl.key() + ": spec.queueName \"" + wl.queueName()
          + "\" must name a LocalQueue in namespace " + wl.namespace());
    }
    return requireQueue(lq.clusterQueue());
  }

  private void requireNew(Workload wl) {
    if (pendingIn.containsKey(wl.key()) || admitted.containsKey(wl.key())) {
      throw new IllegalArgumentException("Workload " + wl.key() + ": already submitted");
    }
  }

  public void submit(Workload wl) {
    requireNew(wl);
    CqState cq = queueOf(wl);
    cq.pending.push(new PendingWorkload(wl, sequence++));
    pendingIn.put(wl.key(), cq);
  }

  /**
   * Records {@code wl} as admitted in {@code clusterQueue} with the given flavor per resource for every pod set,
   * without checking quota (to restore state, or to set up a test as Kueue's tests do). A flavor given for
   * {@code pods} counts one unit per pod in it, as the engine's own admissions in a queue that covers {@code pods};
   * without one no pods are counted (as a Kueue admission that records no {@code pods}).
   */
  public QuotaReservation assumeAdmitted(
      Workload wl, String clusterQueue, Map<String, String> flavorByResource, Instant admittedAt) {
    return assumeAdmitted(wl, clusterQueue, flavorByResource, Map.of(), admittedAt);
  }

  /**
   * As {@link #assumeAdmitted(Workload, String, Map, Instant)}, with the pod sets named in {@code admittedCounts}
   * admitted with that many pods (a partial admission: from the pod set's {@code minCount} to its count).
   */
  public QuotaReservation assumeAdmitted(Workload wl, String clusterQueue, Map<String, String> flavorByResource,
      Map<String, Integer> admittedCounts, Instant admittedAt) {
    requireNew(wl);
    CqState cq = requireQueue(clusterQueue);
    long[] total = new long[index.size()];
    List<PodSetAssignment> podSets = new ArrayList<>();
    for (String name : admittedCounts.keySet()) {
      if (wl.podSets().stream().noneMatch(ps -> ps.name().equals(name))) {
        throw new IllegalArgumentException("Workload " + wl.key() + ": admitted count for pod set " + name
            + ", which the workload does not have");
      }
    }
    for (PodSet full : wl.podSets()) {
      Integer admittedCount = admittedCounts.get(full.name());
      if (admittedCount != null && (admittedCount < full.minCountOrCount() || admittedCount > full.count())) {
        throw new IllegalArgumentException("Workload " + wl.key() + ": admitted count " + admittedCount
            + " of pod set " + full.name() + " must be from " + full.minCountOrCount() + " to " + full.count());
      }
      PodSet ps = admittedCount == null ? full : full.withCount(admittedCount);
      Map<String, String> fl = new LinkedHashMap<>();
      io.fleetkit.api.resource.ResourceList.Builder usage = io.fleetkit.api.resource.ResourceList.builder();
      for (String r : ps.requests().names()) {
        String flavor = flavorByResource.get(r);
        int fr = flavor == null ? -1 : index.of(flavor, r);
        if (fr < 0 || !cq.covered[fr]) {
          throw new IllegalArgumentException("Workload " + wl.key() + ": resource " + r + " in flavor " + flavor
              + " is not covered by ClusterQueue " + clusterQueue);
        }
        total[fr] += ps.totalMilli(r);
        fl.put(r, flavor);
        usage.put(r, Quantity.ofMilli(ps.totalMilli(r)));
      }
      // Kueue counts the pods an admission records under pods (its assignment adds them when the queue covers pods);
      // an admission recorded without pods uses none
      String podsFlavor = flavorByResource.get(ResourceNames.PODS);
      if (podsFlavor != null) {
        int fr = index.of(podsFlavor, ResourceNames.PODS);
        if (fr < 0 || !cq.covered[fr]) {
          throw new IllegalArgumentException("Workload " + wl.key() + ": resource " + ResourceNames.PODS
              + " in flavor " + podsFlavor + " is not covered by ClusterQueue " + clusterQueue);
        }
        long pods = FlavorAssigner.requestMilli(ps, ResourceNames.PODS);
        total[fr] += pods;
        fl.put(ResourceNames.PODS, podsFlavor);
        usage.put(ResourceNames.PODS, Quantity.ofMilli(pods));
      }
      podSets.add(new PodSetAssignment(ps.name(), ps.count(), fl, usage.build()));
    }
    int n = 0;
    for (long v : total) {
      n += v != 0 ? 1 : 0;
    }
    int[] frs = new int[n];
    long[] vals = new long[n];
    n = 0;
    boolean borrows = false;
    for (int fr = 0; fr < total.length; fr++) {
      if (total[fr] != 0) {
        frs[n] = fr;
        vals[n++] = total[fr];
        borrows |= cq.borrowingWith(fr, total[fr]);
      }
    }
    QuotaReservation admission = new QuotaReservation(wl.key(), clusterQueue, podSets, admittedAt, borrows);
    AdmittedWorkload w = new AdmittedWorkload(wl, cq, frs, vals, admission, sequence++);
    cq.add(w);
    admitted.put(wl.key(), w);
    return admission;
  }

  /** Removes a pending workload, or finishes an admitted one and releases its quota. */
  public boolean delete(String key) {
    CqState p = pendingIn.remove(key);
    if (p != null) {
      p.pending.remove(key);
      return true;
    }
    AdmittedWorkload w = admitted.remove(key);
    if (w == null) {
      return false;
    }
    w.cq.remove(w);
    quotaReleased(w.cq);
    return true;
  }

  /** Kueue's {@code QueueInadmissibleWorkloads}: released quota may admit parked workloads of the cohort tree. */
  private void quotaReleased(CqState cq) {
    CohortState c = cq.cohort;
    if (c == null) {
      cq.pending.unpark();
    } else {
      List<CqState> tree = new ArrayList<>();
      c.root().collectQueues(tree);
      for (CqState m : tree) {
        m.pending.unpark();
      }
    }
  }

  private static final class Entry {
    final PendingWorkload pending;
    final CqState cq;
    final Assignment assignment;
    List<Target> targets = List.of();
    long share;

    Entry(PendingWorkload pending, CqState cq, Assignment assignment) {
      this.pending = pending;
      this.cq = cq;
      this.assignment = assignment;
    }
  }

  /** Runs one scheduling cycle. */
  public CycleResult schedule() {
    Instant now = clock.instant();
    parkedInLastCycle = 0;
    List<Entry> entries = new ArrayList<>();
    Map<String, String> pending = new LinkedHashMap<>();
    for (CqState cq : queues.values()) {
      if (!cq.missingFlavors.isEmpty()) {
        continue; // inactive: Kueue's queue manager hands out no heads of it
      }
      PendingWorkload head = cq.pending.pop();
      if (head == null) {
        continue;
      }
      if (!cq.spec.namespaceSelector().matches(namespaceLabels.getOrDefault(head.workload.namespace(), Map.of()))) {
        // Kueue's ValidateAdmissibility: the workload waits, parked, for its namespace or the queue to change
        head.lastReason = NAMESPACE_MISMATCH;
        pending.put(head.key(), NAMESPACE_MISMATCH);
        cq.pending.park(head);
        parkedInLastCycle++;
        continue;
      }
      Entry e = nominate(head, cq);
      Assignment a = e.assignment;
      if (fairSharing) {
        e.share = DominantResourceShare.of(cq, index, a.frs(), a.values(), 1);
      }
      entries.add(e);
    }
    Comparator<Entry> order = Comparator.comparingInt((Entry e) -> e.assignment.borrowing());
    if (fairSharing) {
      order = order.thenComparingLong(e -> e.share);
    }
    order = order.thenComparing(e -> e.pending, PendingWorkload.ORDER);
    entries.sort(order);

    List<QuotaReservation> admittedNow = new ArrayList<>();
    List<Preemption> preempted = new ArrayList<>();
    Set<String> evictedNow = new HashSet<>();
    Set<CqState> released = new HashSet<>();
    // Usage held for the rest of the cycle, undone at its end.
    List<Held> reserved = new ArrayList<>();
    for (Entry e : entries) {
      CqState cq = e.cq;
      Assignment a = e.assignment;
      if (a.mode() == Assignment.NO_FIT) {
        inadmissible(e, a.message(), pending);
        continue;
      }
      if (a.mode() == Assignment.PREEMPT && e.targets.isEmpty()) {
        // Kueue's reserveCapacityForUnreclaimablePreempt: a queue that cannot always reclaim its nominal quota keeps
        // what it could use, so that lower-priority work elsewhere in the cohort does not take it first
        if (cq.spec.preemption().reclaimWithinCohort() != QueuePreemptionPolicy.ANY) {
          long[] hold = toReserve(cq, a);
          cq.addUsage(a.frs(), hold, 1);
          reserved.add(new Held(cq, a.frs(), hold));
        }
        inadmissible(e, a.message(), pending); // Kueue's message: the assignment's, as for a workload that does not fit
        continue;
      }
      if (a.mode() == Assignment.PREEMPT) {
        if (overlaps(e.targets, evictedNow)) {
          skipped(e, "workload has overlapping preemption targets with another workload", pending);
          continue;
        }
        if (!fitsWithout(cq, a, e.targets)) {
          skipped(e, "workload no longer fits after processing another workload", pending);
          continue;
        }
        for (Target t : e.targets) {
          AdmittedWorkload v = t.victim();
          evict(v);
          evictedNow.add(v.key());
          released.add(v.cq);
          preempted.add(new Preemption(v.key(), v.cq.name, e.pending.key(), t.reason(), cq.path(), v.cq.path()));
        }
        // Kueue's cycle usage: the preemptor's usage stays reserved for the rest of the cycle, so a later head of the
        // cohort cannot take the quota just freed for it (else two heads can preempt each other forever)
        cq.addUsage(a.frs(), a.values(), 1);
        reserved.add(new Held(cq, a.frs(), a.values()));
        skipped(e, a.message() + "; pending the preemption of " + e.targets.size() + " workload(s)", pending);
        continue;
      }
      if (!fits(cq, a.frs(), a.values())) {
        skipped(e, "workload no longer fits after processing another workload", pending);
        continue;
      }
      QuotaReservation admission = new QuotaReservation(e.pending.key(), cq.name, a.podSets(), now, a.borrows());
      AdmittedWorkload w = new AdmittedWorkload(e.pending.workload, cq, a.frs(), a.values(), admission, sequence++);
      cq.add(w);
      pendingIn.remove(e.pending.key());
      admitted.put(w.key(), w);
      admittedNow.add(admission);
      LOG.debug("admitted {} in {}", w.key(), cq.name);
    }
    for (Held h : reserved) {
      h.cq().addUsage(h.frs(), h.values(), -1);
    }
    for (CqState cq : released) {
      quotaReleased(cq);
    }
    return new CycleResult(admittedNow, preempted, pending);
  }

  /**
   * Kueue's {@code getInitialAssignments}: the full assignment if it fits, or fits by preemption with targets; else,
   * for a workload that may be admitted partially, the largest pod counts from the minimum counts up that fit or fit
   * by preempting ({@link PodSetReducer}); else the full assignment, without targets.
   */
  private Entry nominate(PendingWorkload head, CqState cq) {
    Workload wl = head.workload;
    Assignment full = assigner.assign(wl, cq);
    Entry e = new Entry(head, cq, full);
    if (full.mode() == Assignment.FIT) {
      return e;
    }
    if (full.mode() == Assignment.PREEMPT) {
      e.targets = preemptor.targets(wl, cq, full);
      if (!e.targets.isEmpty()) {
        return e;
      }
    }
    if (!wl.canBePartiallyAdmitted()) {
      return e;
    }
    int[] counts = new int[wl.podSets().size()];
    int[] minCounts = new int[counts.length];
    for (int i = 0; i < counts.length; i++) {
      counts[i] = wl.podSets().get(i).count();
      minCounts[i] = wl.podSets().get(i).minCountOrCount();
    }
    Entry partial = new PodSetReducer(counts, minCounts).search(next -> {
      Workload reduced = wl.withCounts(next);
      Assignment a = assigner.assign(reduced, cq);
      if (a.mode() == Assignment.FIT) {
        return new Entry(head, cq, a);
      }
      if (a.mode() == Assignment.PREEMPT) {
        List<Target> targets = preemptor.targets(reduced, cq, a);
        if (!targets.isEmpty()) {
          Entry r = new Entry(head, cq, a);
          r.targets = targets;
          return r;
        }
      }
      return null;
    });
    return partial != null ? partial : e;
  }

  /** Usage a queue holds for the rest of a cycle. */
  private record Held(CqState cq, int[] frs, long[] values) {}

  /** Kueue's {@code ClusterQueueSnapshot.Fits}: every flavor-resource of the assignment is available now. */
  private static boolean fits(CqState cq, int[] frs, long[] values) {
    for (int i = 0; i < frs.length; i++) {
      if (values[i] > cq.available(frs[i])) {
        return false;
      }
    }
    return true;
  }

  /** Whether the assignment fits once {@code targets} are gone (Kueue's {@code fits} with simulated removal). */
  private static boolean fitsWithout(CqState cq, Assignment a, List<Target> targets) {
    for (Target t : targets) {
      t.victim().cq.addUsage(t.victim().frs, t.victim().values, -1);
    }
    boolean fits = fits(cq, a.frs(), a.values());
    for (Target t : targets) {
      t.victim().cq.addUsage(t.victim().frs, t.victim().values, 1);
    }
    return fits;
  }

  private static boolean overlaps(List<Target> targets, Set<String> evicted) {
    for (Target t : targets) {
      if (evicted.contains(t.victim().key())) {
        return true;
      }
    }
    return false;
  }

  /**
   * Kueue's {@code quotaResourcesToReserve} for a head that needs preemption but has no candidates: up to the
   * borrowing limit if it borrows, else up to the nominal quota.
   */
  private static long[] toReserve(CqState cq, Assignment a) {
    long[] out = new long[a.frs().length];
    for (int i = 0; i < out.length; i++) {
      int fr = a.frs()[i];
      long v = a.values()[i];
      if (a.borrows()) {
        out[i] = cq.borrowingLimit[fr] == CqState.NO_LIMIT
            ? v : Math.max(0, Math.min(v, cq.nominal[fr] + cq.borrowingLimit[fr] - cq.usage[fr]));
      } else {
        out[i] = Math.max(0, Math.min(v, cq.nominal[fr] - cq.usage[fr]));
      }
    }
    return out;
  }

  private void evict(AdmittedWorkload v) {
    admitted.remove(v.key());
    v.cq.remove(v);
    v.cq.pending.push(new PendingWorkload(v.workload, sequence++));
    pendingIn.put(v.key(), v.cq);
  }

  private void inadmissible(Entry e, String reason, Map<String, String> pending) {
    e.pending.lastReason = reason;
    pending.put(e.pending.key(), reason);
    if (e.cq.spec.queueingStrategy() == io.fleetkit.queueing.QueueingStrategy.BEST_EFFORT_FIFO) {
      parkedInLastCycle++;
    }
    e.cq.pending.requeueInadmissible(e.pending);
  }

  /**
   * Whether another cycle could change anything: the last one admitted, preempted or parked a head (which exposes the
   * next one). A cycle that only requeued StrictFIFO heads leaves the engine in a fixpoint.
   */
  public boolean mayProgress(CycleResult last) {
    return last.progressed() || parkedInLastCycle > 0;
  }

  private static void skipped(Entry e, String reason, Map<String, String> pending) {
    e.pending.lastReason = reason;
    pending.put(e.pending.key(), reason);
    e.cq.pending.push(e.pending);
  }

  /** Whether any queue has an active (not parked) pending workload. */
  public boolean hasActive() {
    for (CqState cq : queues.values()) {
      if (cq.pending.hasActive()) {
        return true;
      }
    }
    return false;
  }

  public @Nullable QuotaReservation admission(String key) {
    AdmittedWorkload w = admitted.get(key);
    return w == null ? null : w.admission;
  }

  public List<QuotaReservation> admitted(String clusterQueue) {
    List<QuotaReservation> out = new ArrayList<>();
    for (AdmittedWorkload w : requireQueue(clusterQueue).admitted.values()) {
      out.add(w.admission);
    }
    return out;
  }

  public List<String> inadmissible(String clusterQueue) {
    return requireQueue(clusterQueue).pending.parkedKeys();
  }

  public List<String> pending(String clusterQueue) {
    List<String> out = new ArrayList<>();
    for (PendingWorkload p : requireQueue(clusterQueue).pending.snapshot()) {
      out.add(p.key());
    }
    return out;
  }

  public int pendingCount() {
    return pendingIn.size();
  }

  public int admittedCount() {
    return admitted.size();
  }

  public long share(String clusterQueue) {
    return DominantResourceShare.of(requireQueue(clusterQueue), index);
  }

  public Quantity usage(String clusterQueue, String flavor, String resource) {
    CqState cq = requireQueue(clusterQueue);
    int fr = index.of(flavor, resource);
    return fr < 0 ? Quantity.ZERO : Quantity.ofMilli(cq.usage[fr]);
  }
}
