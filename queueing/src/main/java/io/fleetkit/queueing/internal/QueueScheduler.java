package io.fleetkit.queueing.internal;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionCheckController;
import io.fleetkit.queueing.AdmissionCheckState;
import io.fleetkit.queueing.AdmissionChecks;
import io.fleetkit.queueing.CheckOutcome;
import io.fleetkit.queueing.CheckState;
import io.fleetkit.queueing.QuotaReservation;
import io.fleetkit.queueing.NodeReplacement;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.CycleResult;
import io.fleetkit.queueing.FairSharingStrategy;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.PodSet;
import io.fleetkit.queueing.PodSetAssignment;
import io.fleetkit.queueing.Preemption;
import io.fleetkit.queueing.QueuePreemptionPolicy;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.Workload;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Iterator;
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
 *   <li>nominate: assign flavors, resuming each head's flavor search after the flavor its last nomination stopped on
 *       ({@link FlavorScanProgress}, unless outdated), and find preemption targets for heads that fit only by
 *       preemption;
 *   <li>order the heads: those that do not borrow first, then higher priority, then older; with fair sharing, one at
 *       a time by {@link FairSharingTournament} over each cohort tree, with the usage of that moment;
 *   <li>admit the heads that still fit after the admissions and preemptions earlier in the cycle; issue the
 *       preemptions of a head whose targets no earlier head took and that fits once they are gone (the preemptor is
 *       admitted in a later cycle, once the quota is free); a head that needs preemption but has no candidates holds
 *       what it could use for the rest of the cycle unless its queue can always reclaim ({@code reclaimWithinCohort:
 *       Any}); park or requeue the rest per the queueing strategy, a head with flavors left to try requeued
 *       at once.
 * </ol>
 *
 * <p>Around the cycle it is the wiring of the engine's parts, each a focused type after a part of Kueue: the queue
 * configuration is a {@link QueueRegistry}'s and what a change of it does to the workloads a {@link QueueReconciler}'s
 * (Kueue's queue controllers); where each workload without quota waits (queued, waiting for a backoff, unrouted,
 * deactivated) is a {@link PendingWorkloads}' (the queue manager); the workloads with quota are an {@link
 * AdmittedWorkloads}' (the cache), and one restored from outside is read by {@link RestoredReservations}; the check
 * states an {@link AdmissionCheckStates}'; what check states, stop policies and PodsReady timeouts do to a workload
 * with quota, and its eviction, a {@link WorkloadReconciler}'s (the workload controller), with the PodsReady
 * conditions, requeue states and timeouts of {@code waitForPodsReady} a {@link PodsReadyTimeouts}'; node events a
 * {@link NodeReconciler}'s (the TAS node controller); reclaimable pods, priority changes and WorkloadPriorityClasses a
 * {@link WorkloadUpdates}'.
 */
public final class QueueScheduler {
  private static final Logger LOG = LoggerFactory.getLogger(QueueScheduler.class);
  /** Kueue's {@code ErrNamespaceMismatch}. */
  static final String NAMESPACE_MISMATCH = "workload namespace doesn't match ClusterQueue selector";

  private final Clock clock;
  /** The queue configuration: flavors, checks, ClusterQueues, Cohorts, LocalQueues and the index. */
  private final QueueRegistry registry;
  private final FlavorResources index;
  /** Where each workload without quota waits: queued, a head of the running cycle, backoff, unrouted, deactivated. */
  private final PendingWorkloads pending;
  /** The workloads with quota (Kueue's cache), and the engine's arrival numbers. */
  private final AdmittedWorkloads admitted = new AdmittedWorkloads();
  /** Reclaimable pods, priorities and WorkloadPriorityClasses: updates that keep workloads where they are. */
  private final WorkloadUpdates updates;
  /**
   * Preemptors holding the nodes of their topology assignments for the rest of the current cycle (empty between
   * cycles).
   */
  private final List<AdmittedWorkload> heldTopology = new ArrayList<>();
  private final Map<String, Map<String, String>> namespaceLabels;
  private final FlavorAssigner assigner;
  /** Kueue's queue controllers: what a change of the queue configuration does to the workloads. */
  private final QueueReconciler queues;
  /** Reads reservations restored from outside ({@code status.admission}). */
  private final RestoredReservations restored;
  private final TopologyPlacer topology;
  private final Preemptor preemptor;
  private final boolean fairSharing;
  private int parkedInLastCycle;
  /** The heads the last cycle requeued with flavors left to try ({@link FlavorScanProgress#pendingFlavors}). */
  private int resumableInLastCycle;
  /** Kueue's {@code schedulingCycle}: the number of cycles run, the age of a head's {@link FlavorScanProgress}. */
  private long schedulingCycle;
  /** The check states of pending and reserved workloads, the check controllers, the workloads awaiting checks. */
  private final AdmissionCheckStates checks;
  /** Kueue's {@code waitForPodsReady}: the workloads' Admitted times, PodsReady conditions and requeue states. */
  private final PodsReadyTimeouts podsReady = new PodsReadyTimeouts();
  /** Kueue's admission fair sharing, if enabled: LocalQueues' decayed usage and the order it gives queues. */
  private @Nullable AfsAccounting afs;
  /** Kueue's workload controller: check states, stop policies and PodsReady timeouts, and evictions. */
  private final WorkloadReconciler workloads;

  /** Kueue's TAS node controller: node events, the workloads' unhealthy nodes. */
  private final NodeReconciler nodes;
  /** Kueue's {@code NodeFailureDelay}. */
  public static final java.time.Duration DEFAULT_NODE_FAILURE_DELAY = NodeReconciler.DEFAULT_NODE_FAILURE_DELAY;

  /**
   * @param namespaces the labels of the namespaces ClusterQueues' namespace selectors match (a namespace not given
   *     has no labels)
   * @param admissionChecks the engine's AdmissionChecks
   * @param controllers the admission check controllers, at most one per controller name
   */
  public QueueScheduler(
      Clock clock,
      List<ResourceFlavor> flavorList,
      List<ClusterQueue> clusterQueues,
      List<Cohort> cohortList,
      List<LocalQueue> locals,
      Map<String, Map<String, String>> namespaces,
      boolean fairSharing,
      List<FairSharingStrategy> strategies,
      List<AdmissionCheck> admissionChecks,
      List<AdmissionCheckController> controllers) {
    this.clock = clock;
    this.registry = new QueueRegistry(admitted.values(), this::drop);
    this.index = registry.index();
    this.pending = new PendingWorkloads(registry);
    this.updates = new WorkloadUpdates(admitted, pending, index);
    registry.addAdmissionChecks(admissionChecks);
    this.checks = new AdmissionCheckStates(clock, registry, controllers);
    this.workloads = new WorkloadReconciler(clock, registry, admitted, pending, checks, podsReady,
        this::forgetUnhealthyNodes, this::afsAccounting);
    this.queues = new QueueReconciler(registry, pending, checks, workloads, this::afsAccounting);
    this.fairSharing = fairSharing;
    this.namespaceLabels = new HashMap<>(namespaces);
    registry.configure(flavorList, clusterQueues, cohortList, locals);
    this.preemptor = new Preemptor(index, fairSharing, strategies);
    this.topology = new TopologyPlacer(registry.flavors(), index);
    this.assigner = new FlavorAssigner(index, registry.flavors(), fairSharing, preemptor::simulate, topology);
    this.restored = new RestoredReservations(registry, index, assigner);
    this.nodes = new NodeReconciler(clock, admitted, topology, registry, checks, workloads::evict);
  }

  /** Forgets the unhealthy nodes of a workload that loses its quota. */
  private void forgetUnhealthyNodes(String key) {
    nodes.failures().clear(key);
  }

  /**
   * Enables Kueue's {@code waitForPodsReady} with {@code config}; {@code random} draws the jitter of requeue delays.
   */
  public void waitForPodsReady(io.fleetkit.queueing.WaitForPodsReady config, java.util.random.RandomGenerator random) {
    podsReady.configure(config, random);
  }

  /**
   * Enables Kueue's admission fair sharing with {@code config}: ClusterQueues with usage-based admission mode order
   * their pending workloads by their LocalQueues' usage from now on.
   *
   * @throws IllegalStateException if it was enabled before
   */
  public void admissionFairSharing(io.fleetkit.queueing.AdmissionFairSharing config) {
    if (afs != null) {
      throw new IllegalStateException("admission engine: admissionFairSharing was already set to " + afs.config());
    }
    AfsAccounting accounting = new AfsAccounting(config, registry);
    afs = accounting;
    preemptor.admissionFairSharing(accounting::candidateUsage);
  }

  /** Admission fair sharing's accounting, or {@code null} if the engine does not have it. */
  @Nullable AfsAccounting afsAccounting() {
    return afs;
  }

  /** Kueue's admission fair sharing configuration, or {@code null} if the engine does not have it. */
  public io.fleetkit.queueing.@Nullable AdmissionFairSharing admissionFairSharingConfig() {
    return afs == null ? null : afs.config();
  }

  /**
   * The admission fair sharing status of LocalQueue {@code namespace/name} (Kueue's {@code
   * status.fairSharing.admissionFairSharingStatus}), or {@code null} if it has none yet.
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   */
  public io.fleetkit.queueing.@Nullable LocalQueueFairSharingStatus localQueueFairSharing(String namespace,
      String name) {
    requireLocalQueue(namespace, name);
    return afs == null ? null : afs.status(namespace + "/" + name);
  }

  /**
   * Restores the admission fair sharing status of LocalQueue {@code namespace/name} (as Kueue's persisted status): its
   * next sample seeds the LocalQueue's usage from it, if the engine has none for it yet.
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   * @throws IllegalStateException if the engine does not have admission fair sharing
   */
  public void assumeLocalQueueFairSharing(String namespace, String name,
      io.fleetkit.queueing.LocalQueueFairSharingStatus status) {
    requireLocalQueue(namespace, name);
    if (afs == null) {
      throw new IllegalStateException("LocalQueue " + namespace + "/" + name
          + ": status.fairSharing.admissionFairSharingStatus needs an engine with admissionFairSharing");
    }
    afs.status(namespace + "/" + name, status);
  }

  /**
   * The usage by which admission fair sharing orders the workloads of LocalQueue {@code namespace/name} now: its
   * consumed resources and pending entry penalties, weighted by resource and divided by its weight; 0 without
   * admission fair sharing.
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   */
  public double localQueueUsage(String namespace, String name) {
    requireLocalQueue(namespace, name);
    return afs == null ? 0 : afs.usage(namespace + "/" + name);
  }

  private void requireLocalQueue(String namespace, String name) {
    if (registry.localQueue(namespace, name) == null) {
      throw new IllegalArgumentException("admission engine: LocalQueue \"" + namespace + "/" + name
          + "\" is not known");
    }
  }

  /** Kueue's {@code resources.transformations}: how pod requests count against quota. */
  public void resourceTransformations(List<io.fleetkit.queueing.ResourceTransformation> transformations) {
    assigner.transformations(transformations);
  }

  /**
   * Configures node replacement: how long a node may be NotReady before its workloads' pods are replaced, and whether
   * a workload whose unhealthy node has no replacement is evicted ({@code failFast}) or keeps trying. Records kept.
   */
  public void nodeReplacement(java.time.Duration nodeFailureDelay, boolean failFast, boolean onPodTermination,
      boolean afterFixedTime, boolean onNodeTaints) {
    nodes.configure(nodeFailureDelay, failFast, onPodTermination, afterFixedTime, onNodeTaints);
  }

  /** How long a node may be not Ready before the workloads it hosts get it recorded as unhealthy. */
  public java.time.Duration nodeFailureDelay() {
    return nodes.failures().delay();
  }

  /** Whether some node's NotReady delay has run out, so that the next cycle records it as unhealthy. */
  public boolean nodeFailuresDue() {
    return nodes.due();
  }

  /** The workloads with quota whose topology assignments name {@code node}, oldest admission first. */
  public List<String> workloadsOn(String node) {
    return admitted.on(node);
  }

  /** The unhealthy nodes recorded for {@code key} (Kueue's {@code status.unhealthyNodes}); empty when none. */
  public List<String> unhealthyNodes(String key) {
    return nodes.failures().of(key);
  }

  /**
   * Restores the unhealthy nodes of a workload with quota (as Kueue keeps them in its status).
   *
   * @throws IllegalArgumentException if the workload holds no quota or a node name is empty or repeated
   */
  public void assumeUnhealthyNodes(String key, List<String> nodes) {
    this.nodes.assumeUnhealthyNodes(key, nodes);
  }

  /**
   * Adds or replaces a Topology; workloads parked in any queue are requeued (they may fit in it now).
   */
  public void putTopology(io.fleetkit.queueing.Topology t) {
    topology.topologies.put(t.name(), t);
    unparkAll();
  }

  /** Adds or replaces a node for topology-aware scheduling; parked workloads are requeued. */
  public void putNode(io.fleetkit.api.core.Node node) {
    io.fleetkit.api.core.Node before = topology.nodes.put(node.name(), node);
    nodes.nodePut(before, node);
    unparkAll();
  }

  /**
   * Records how many pods of a workload with quota bound to {@code node} are progressing (not deleted, not
   * terminated), and judges the workload there if the node is NotReady or tainted (Kueue's node controller on pod
   * events). Returns false, recording nothing, if the workload holds no quota.
   */
  public boolean progressingPods(String key, String node, int count) {
    return nodes.progressingPods(key, node, count);
  }

  /** Removes a node (its workloads get it recorded as unhealthy); returns whether the engine had it. */
  public boolean removeNode(String name) {
    topology.nodeUsage.remove(name);
    nodes.nodeRemoved(name);
    return topology.nodes.remove(name) != null;
  }

  /**
   * Kueue's second pass for delayed topology requests ({@code needsSecondPassForDelayedAssignment}): every workload
   * with reserved quota, all its checks Ready and a pod set waiting for its topology assignment, in reservation order,
   * gets those pod sets placed against the nodes' room now (not the quota: its reservation holds it) and is admitted.
   * One that does not fit keeps its reservation and is tried again next cycle, its reason in {@code reasons} (Kueue's
   * {@code SecondPassFailed} event). Only workloads awaiting checks are looked at: queues without checks pay nothing.
   */
  private List<CheckOutcome> delayedTopologyPass(Instant now, Map<String, String> reasons) {
    List<CheckOutcome> out = new ArrayList<>();
    if (!checks.anyAwaiting()) {
      return out;
    }
    for (String key : checks.awaiting()) {
      AdmittedWorkload w = admitted.get(key);
      WorkloadCheckStates wc = checks.get(key);
      if (w == null || wc == null || wc.admitted || !w.admission.topologyPending()
          || !AdmissionChecks.allReady(wc.states)) {
        continue;
      }
      String[] failure = new String[1];
      QuotaReservation placed = topology.placeDelayed(w.workload, w.cq, w.admission, tasView(Set.of()), failure);
      if (placed == null) {
        reasons.put(key, failure[0]);
        LOG.debug("second pass for the delayed topology request of {}: {}", key, failure[0]);
        continue;
      }
      admitted.replace(w, new AdmittedWorkload(w.workload, w.cq, w.frs, w.values, placed, w.sequence));
      CheckOutcome o = workloads.react(key, now);
      if (o != null) {
        out.add(o);
        checks.stopAwaiting(key);
      }
    }
    return out;
  }

  /**
   * Kueue's second pass for admitted workloads whose topology assignment names an unhealthy node, oldest admission
   * first (Kueue's iterator puts them before the pending heads): the pods of that node get a replacement, the rest of
   * the assignment kept, against the nodes' room now, so that the heads after see it taken. Without one, the workload
   * is evicted at the end of the cycle ({@code failFast}, added to {@code toEvict}) or keeps trying.
   */
  private List<NodeReplacement> secondPass(List<AdmittedWorkload> toEvict) {
    List<NodeReplacement> out = new ArrayList<>();
    NodeFailures nodeFailures = nodes.failures();
    if (!nodeFailures.any()) {
      return out;
    }
    List<AdmittedWorkload> candidates = new ArrayList<>();
    for (AdmittedWorkload w : admitted.values()) {
      if (nodeFailures.toReplace(w) != null && isAdmitted(w.key())) {
        candidates.add(w);
      }
    }
    for (AdmittedWorkload w : AdmittedWorkloads.oldestFirst(candidates)) {
      String node = java.util.Objects.requireNonNull(nodeFailures.toReplace(w));
      List<String> nodes = nodeFailures.of(w.key());
      TopologyPlacer.Replacement r = topology.replace(w.workload, w.admission.podSets(), node, tasView(Set.of()));
      NodeReplacement.Kind kind;
      String message;
      QuotaReservation reservation = w.admission;
      if (r.fits()) {
        reservation = r.applyTo(w.admission);
        admitted.replace(w, new AdmittedWorkload(w.workload, w.cq, w.frs, w.values, reservation, w.sequence));
        // Kueue's cycle snapshot still counts the pods on the replaced node until the cycle ends: the heads after this
        // one must not take that node either
        heldTopology.add(new AdmittedWorkload(w.workload, w.cq, new int[0], new long[0],
            r.movedAway(w.admission, node), -1));
        nodeFailures.clear(w.key());
        kind = NodeReplacement.Kind.REPLACED;
        message = "";
      } else if (this.nodes.failFast()) {
        toEvict.add(w);
        kind = NodeReplacement.Kind.EVICTED;
        message = NodeReplacement.NO_REPLACEMENT_MESSAGE + String.join(",", nodes);
      } else {
        kind = NodeReplacement.Kind.FAILED;
        message = java.util.Objects.requireNonNull(r.failure());
      }
      LOG.debug("node replacement of {} for {}: {} {}", node, w.key(), kind, message);
      out.add(new NodeReplacement(w.key(), w.cq.name, nodes, kind, message, reservation));
    }
    return out;
  }

  /**
   * Sets what pods the engine did not place use on {@code node} ({@code pods} included), for topology-aware
   * scheduling; parked workloads are requeued when it shrinks.
   */
  public void nodeUsage(String node, io.fleetkit.api.resource.ResourceList used) {
    io.fleetkit.api.resource.ResourceList before = topology.nodeUsage.put(node, used);
    if (before != null && !used.fitsIn(before)) {
      return;
    }
    unparkAll();
  }

  public io.fleetkit.api.resource.@Nullable ResourceList nodeUsage(String node) {
    return topology.nodeUsage.get(node);
  }

  public io.fleetkit.queueing.@Nullable Topology topology(String name) {
    return topology.topologies.get(name);
  }

  private void unparkAll() {
    pending.unparkAll();
  }

  /**
   * The flavor assigner's answer for {@code wl}, resuming after {@code resume}, with the topology assignments of its
   * pod sets that need them.
   */
  private Assignment assign(Workload wl, CqState cq, @Nullable FlavorScanProgress resume) {
    return topology.place(wl, cq, assigner.assign(wl, cq, resume), tasView(Set.of()));
  }

  /**
   * The workloads whose topology assignments take nodes' room: the admitted ones but {@code without}, and the
   * preemptors holding room for the rest of the cycle (Kueue's cycle usage of TAS).
   */
  private Collection<AdmittedWorkload> tasView(Set<AdmittedWorkload> without) {
    // a view, read only when a pod set's flavor has a topology: copying every admitted workload for each assignment
    // made admission quadratic in the admitted workloads
    return new java.util.AbstractCollection<>() {
      @Override
      public java.util.Iterator<AdmittedWorkload> iterator() {
        return java.util.stream.Stream.concat(admitted.values().stream().filter(w -> !without.contains(w)),
            heldTopology.stream()).iterator();
      }

      @Override
      public int size() {
        int n = heldTopology.size();
        for (AdmittedWorkload w : admitted.values()) {
          if (!without.contains(w)) {
            n++;
          }
        }
        return n;
      }
    };
  }

  /**
   * The targets that make room for {@code a} (quota and, for pod sets in flavors with a topology, the nodes' room),
   * and {@code a} with the topology assignments it would get once they are gone, or as if the topology were empty
   * when there are none (Kueue's {@code updateAssignmentForTAS}: what a preemptor holds for the rest of the cycle).
   */
  private Entry withTargets(PendingWorkload head, CqState cq, Workload wl, Assignment a) {
    List<Target> targets = preemptor.targets(wl, cq, a,
        removed -> topology.fits(wl, cq, a, tasView(removed)));
    Set<AdmittedWorkload> victims = new HashSet<>();
    for (Target t : targets) {
      victims.add(t.victim());
    }
    Entry e = new Entry(head, cq, topology.withPlacement(wl, cq, a, tasView(victims), targets.isEmpty()));
    e.targets = targets;
    return e;
  }

  /** Adds or replaces an AdmissionCheck; the queues that name it are updated (active or not). */
  public void putAdmissionCheck(AdmissionCheck check) {
    registry.putAdmissionCheck(check);
  }

  /** Removes an AdmissionCheck; the queues that name it become inactive. */
  public boolean removeAdmissionCheck(String name) {
    return registry.removeAdmissionCheck(name);
  }

  public @Nullable AdmissionCheck admissionCheck(String name) {
    return registry.admissionCheck(name);
  }

  /**
   * Adds a ResourceFlavor; ClusterQueues that named it, and miss no other flavor, become active.
   *
   * @throws IllegalArgumentException if the engine already has a flavor of that name
   */
  public void addResourceFlavor(ResourceFlavor flavor) {
    registry.addResourceFlavor(flavor);
  }

  /**
   * Called by the registry for a queue that left the configuration (it holds no quota): its pending workloads, and
   * those waiting for a backoff in it, wait unrouted.
   */
  private void drop(CqState gone) {
    pending.drop(gone);
  }

  /**
   * Adds or replaces a ClusterQueue (Kueue's ClusterQueue create or update event): the quotas, cohort, strategy,
   * checks and stop policy of the new spec apply from now on. Admitted workloads keep their quota even where it now
   * exceeds the nominal quota (Kueue evicts none on a quota decrease); the parked workloads of the queue's cohort tree,
   * before and after, are tried again (Kueue requeues inadmissible workloads on a spec update). A stopped queue
   * releases the reservations not yet admitted, and with {@code HoldAndDrain} evicts its admitted workloads.
   *
   * @throws IllegalArgumentException if the queue is terminating, or the new spec would form a cohort cycle or break
   *     the fair-sharing restriction (nothing changes)
   */
  public void putClusterQueue(ClusterQueue spec) {
    queues.putClusterQueue(spec);
  }

  /**
   * Removes a ClusterQueue (Kueue's ClusterQueue deletion). A queue whose quota workloads still hold is terminating
   * until they leave (Kueue's {@code resource-in-use} finalizer): it admits nothing, its reservations not yet admitted
   * are released, and it is dropped when its last workload with quota finishes or is evicted. A dropped queue's
   * pending workloads wait, unrouted, for a ClusterQueue of that name ({@code ClusterQueue cq doesn't exist}).
   *
   * @return whether the engine had it (terminating or not)
   */
  public boolean removeClusterQueue(String name) {
    return queues.removeClusterQueue(name);
  }

  /**
   * Adds or replaces a Cohort (Kueue's Cohort create or update event); the parked workloads of its tree, before and
   * after, are tried again.
   *
   * @throws IllegalArgumentException if its parent would form a cycle, or fair sharing is enabled (nothing changes)
   */
  public void putCohort(Cohort cohort) {
    queues.putCohort(cohort);
  }

  /**
   * Removes a declared Cohort (Kueue's Cohort deletion): its quotas are gone, and a name ClusterQueues or Cohorts still
   * refer to is a root without quota again. The parked workloads of its tree are tried again.
   *
   * @return whether the engine had it declared
   */
  public boolean removeCohort(String name) {
    return queues.removeCohort(name);
  }

  /**
   * Adds or replaces a LocalQueue (Kueue's LocalQueue create or update event). Its {@code spec.clusterQueue} cannot
   * change (Kueue's API rule). A stopped LocalQueue's pending workloads leave their ClusterQueue and wait; its
   * reservations not yet admitted are released, and with {@code HoldAndDrain} its admitted workloads are evicted; one
   * that resumes queues its workloads again.
   *
   * @throws IllegalArgumentException if the engine has the queue with another {@code spec.clusterQueue}
   */
  public void putLocalQueue(LocalQueue lq) {
    queues.putLocalQueue(lq);
  }

  /**
   * Removes a LocalQueue (Kueue's LocalQueue deletion): its pending workloads wait unrouted ({@code LocalQueue lq
   * doesn't exist}) and its reservations not yet admitted are released; admitted workloads keep their quota.
   *
   * @return whether the engine had it
   */
  public boolean removeLocalQueue(String namespace, String name) {
    return queues.removeLocalQueue(namespace, name);
  }

  public @Nullable ClusterQueue clusterQueue(String name) {
    return registry.clusterQueue(name);
  }

  public @Nullable Cohort cohort(String name) {
    return registry.cohort(name);
  }

  /** Kueue's {@code Active} condition of {@code clusterQueue}. */
  public io.fleetkit.queueing.ActiveCondition clusterQueueActive(String clusterQueue) {
    return registry.requireQueue(clusterQueue).activeCondition();
  }

  /** Kueue's {@code Active} condition of a LocalQueue ({@code localqueue_controller.go}). */
  public io.fleetkit.queueing.ActiveCondition localQueueActive(String namespace, String name) {
    return registry.localQueueActive(namespace, name);
  }

  /**
   * Kueue's {@code getQueueBlocker} for a pending workload: why its queues admit it not ({@code LocalQueue lq doesn't
   * exist}, {@code LocalQueue lq is inactive}, {@code ClusterQueue cq doesn't exist}, {@code ClusterQueue cq is
   * inactive}), or {@code null} if they would (or it is not pending).
   */
  public io.fleetkit.queueing.@Nullable QueueBlocker queueBlocker(String key) {
    if (!pending.isPending(key)) {
      return null;
    }
    return registry.blocker(workloadOf(key), pending.queueOf(key));
  }

  /** Kueue's inactive reason of {@code clusterQueue}, or {@code null} if it admits workloads. */
  public @Nullable String inactiveReason(String clusterQueue) {
    return registry.requireQueue(clusterQueue).inactiveReason();
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
    pending.unparkAll();
  }

  public @Nullable ResourceFlavor resourceFlavor(String name) {
    return registry.resourceFlavor(name);
  }

  public @Nullable LocalQueue localQueue(String namespace, String name) {
    return registry.localQueue(namespace, name);
  }

  public FlavorResources index() {
    return index;
  }

  public @Nullable CqState queue(String name) {
    return registry.queue(name);
  }

  @Nullable CohortState cohortState(String name) {
    return registry.cohortState(name);
  }

  public FlavorAssigner assigner() {
    return assigner;
  }

  public Preemptor preemptor() {
    return preemptor;
  }

  private void requireNew(Workload wl) {
    if (pending.contains(wl.key()) || admitted.contains(wl.key())) {
      throw new IllegalArgumentException("Workload " + wl.key() + ": already submitted");
    }
  }

  /**
   * Queues {@code wl} in its LocalQueue's ClusterQueue; one whose LocalQueue is stopped, or whose ClusterQueue was
   * removed, waits unrouted (Kueue keeps such a workload out of the queues).
   */
  public void submit(Workload wl) {
    requireNew(wl);
    LocalQueue lq = registry.localQueueOf(wl);
    if (lq == null) {
      throw new IllegalArgumentException("Workload " + wl.key() + ": spec.queueName \"" + wl.queueName()
          + "\" must name a LocalQueue in namespace " + wl.namespace());
    }
    CqState cq = pending.enqueue(new PendingWorkload(wl, admitted.nextSequence()), null);
    if (cq != null) {
      checks.sync(wl.key(), cq, null);
    }
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
    return assumeAdmitted(wl, clusterQueue, flavorByResource, admittedCounts, Map.of(), admittedAt);
  }

  /**
   * As {@link #assumeAdmitted(Workload, String, Map, Map, Instant)}, with the topology assignments of the pod sets
   * named in {@code topologyAssignments} (restoring a topology-aware admission: its pods use their nodes' room).
   */
  public QuotaReservation assumeAdmitted(Workload wl, String clusterQueue, Map<String, String> flavorByResource,
      Map<String, Integer> admittedCounts, Map<String, io.fleetkit.queueing.TopologyAssignment> topologyAssignments,
      Instant admittedAt) {
    requireNew(wl);
    RestoredReservations.Reservation r = restored.fromFlavors(wl, clusterQueue, flavorByResource, admittedCounts,
        topologyAssignments);
    CqState cq = r.cq();
    QuotaReservation admission = admitted.reserve(wl, cq, r.total(), r.podSets(), admittedAt);
    // restoring an admitted workload: the checks that apply to it had passed
    checks.sync(wl.key(), cq, admission);
    checks.restoredReady(wl.key(), admittedAt);
    if (isAdmitted(wl.key())) {
      podsReady.admitted(wl.key(), admittedAt);
    }
    // restored into a stopped queue: Kueue's workload controller evicts it (or releases it) on its first reconcile
    workloads.enforceStop(admitted.get(wl.key()));
    return admission;
  }

  /**
   * Records {@code wl} as holding quota in {@code clusterQueue} with the given pod set assignments (restoring a
   * reservation, as Kueue's {@code status.admission}: flavors per pod set, counts, topology assignments and delayed
   * topology requests), without checking quota. The checks that apply to it start {@link CheckState#PENDING}; it is
   * admitted when they are all Ready and no pod set waits for its topology assignment.
   */
  public QuotaReservation assumeReserved(Workload wl, String clusterQueue, List<PodSetAssignment> assignments,
      Instant reservedAt) {
    requireNew(wl);
    RestoredReservations.Reservation r = restored.fromAssignments(wl, clusterQueue, assignments);
    CqState cq = r.cq();
    QuotaReservation admission = admitted.reserve(wl, cq, r.total(), r.podSets(), reservedAt);
    checks.sync(wl.key(), cq, admission);
    if (checks.has(wl.key())) {
      checks.await(wl.key());
    } else if (isAdmitted(wl.key())) {
      podsReady.admitted(wl.key(), reservedAt);
    }
    workloads.enforceStop(admitted.get(wl.key()));
    return admission;
  }

  /** Removes a pending workload, or finishes an admitted one and releases its quota. */
  public boolean delete(String key) {
    if (afs != null) {
      Workload wl = pending.workload(key);
      AdmittedWorkload with = admitted.get(key);
      if (wl == null && with != null) {
        wl = with.workload;
      }
      if (wl != null) {
        afs.gone(wl);
      }
    }
    nodes.failures().clear(key);
    checks.forget(key);
    podsReady.forget(key);
    updates.forget(key);
    if (pending.remove(key)) {
      return true;
    }
    AdmittedWorkload w = admitted.remove(key);
    if (w == null) {
      return false;
    }
    pending.unparkTree(w.cq);
    queues.dropTerminated();
    return true;
  }

  private static final class Entry implements FairSharingTournament.Candidate {
    final PendingWorkload pending;
    final CqState cq;
    final Assignment assignment;
    List<Target> targets = List.of();
    Drs share = Drs.NEGATIVE;

    Entry(PendingWorkload pending, CqState cq, Assignment assignment) {
      this.pending = pending;
      this.cq = cq;
      this.assignment = assignment;
    }

    @Override
    public CqState cq() {
      return cq;
    }

    @Override
    public PendingWorkload pending() {
      return pending;
    }

    @Override
    public int[] frs() {
      return assignment.frs();
    }

    @Override
    public long[] values() {
      return assignment.values();
    }
  }

  /** Runs one scheduling cycle. */
  public CycleResult schedule() {
    Instant now = clock.instant();
    parkedInLastCycle = 0;
    resumableInLastCycle = 0;
    schedulingCycle++;
    queues.dropTerminated();
    List<io.fleetkit.queueing.QueueStopEviction> queueStops = workloads.takeStopEvents();
    List<io.fleetkit.queueing.PodsReadyEviction> podsReadyEvictions = workloads.evictNotReady(now);
    releaseBackoff(now);
    if (afs != null) {
      afs.sample(admitted.values(), this::isAdmitted, now);
    }
    List<NodeReplacement> replacements = nodes.expire(now);
    // Kueue's eviction after a failed replacement completes after the cycle: the workload keeps its quota and nodes
    // until then, and is not a head of this cycle
    List<AdmittedWorkload> evictAfter = new ArrayList<>();
    Map<String, String> reasons = new LinkedHashMap<>();
    List<CheckOutcome> delayedAdmitted = delayedTopologyPass(now, reasons);
    replacements.addAll(secondPass(evictAfter));
    List<Entry> entries = new ArrayList<>();
    for (CqState cq : registry.queues()) {
      if (!cq.active()) {
        continue; // inactive: Kueue's queue manager hands out no heads of it
      }
      PendingWorkload head = pending.popHead(cq);
      if (head == null) {
        continue;
      }
      if (!cq.spec.namespaceSelector().matches(namespaceLabels.getOrDefault(head.workload.namespace(), Map.of()))) {
        // Kueue's ValidateAdmissibility: the workload waits, parked, for its namespace or the queue to change
        head.lastReason = NAMESPACE_MISMATCH;
        reasons.put(head.key(), NAMESPACE_MISMATCH);
        pending.park(head);
        parkedInLastCycle++;
        continue;
      }
      if (AdmissionChecks.anyFailed(checks.states(head.key()))) {
        // Kueue's scheduler: a workload with a Retry or Rejected check is not considered until the check changes
        head.lastReason = AdmissionChecks.FAILED_CHECKS;
        reasons.put(head.key(), AdmissionChecks.FAILED_CHECKS);
        pending.park(head);
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
      order = order.thenComparing(e -> e.share, Drs::compare);
    }
    order = order.thenComparing(e -> e.pending, PendingWorkload.ORDER);
    entries.sort(order);
    // with fair sharing, Kueue's tournament over each cohort tree, with the usage of the moment of each pop
    FairSharingTournament<Entry> tournament = fairSharing ? new FairSharingTournament<>(index, entries) : null;
    Iterator<Entry> sorted = entries.iterator();

    List<QuotaReservation> admittedNow = new ArrayList<>();
    List<Preemption> preempted = new ArrayList<>();
    Set<String> evictedNow = new HashSet<>();
    Set<CqState> released = new HashSet<>();
    // Usage held for the rest of the cycle, undone at its end.
    List<Held> reserved = new ArrayList<>();
    while (tournament != null ? tournament.hasNext() : sorted.hasNext()) {
      Entry nominated = tournament != null ? tournament.pop() : sorted.next();
      Entry e = recomputeIfNeeded(nominated, evictedNow);
      CqState cq = e.cq;
      Assignment a = e.assignment;
      if (a.mode() == Assignment.NO_FIT) {
        inadmissible(e, a.message(), reasons);
        continue;
      }
      if (a.mode() == Assignment.PREEMPT && e.targets.isEmpty()) {
        // Kueue's reserveCapacityForUnreclaimablePreempt: a queue that cannot always reclaim its nominal quota keeps
        // what it could use, and the nodes it would take in an empty topology, so that lower-priority work elsewhere
        // in the cohort does not take them first
        if (cq.spec.preemption().reclaimWithinCohort() != QueuePreemptionPolicy.ANY) {
          long[] hold = toReserve(cq, a);
          cq.addUsage(a.frs(), hold, 1);
          reserved.add(new Held(cq, a.frs(), hold));
          holdTopology(e, now);
        }
        inadmissible(e, a.message(), reasons); // Kueue's message: the assignment's, as for one that does not fit
        continue;
      }
      if (a.mode() == Assignment.PREEMPT) {
        if (overlaps(e.targets, evictedNow)) {
          skipped(e, "workload has overlapping preemption targets with another workload", reasons);
          continue;
        }
        if (!fitsWithout(cq, a, e.targets)) {
          skipped(e, "workload no longer fits after processing another workload", reasons);
          continue;
        }
        for (Target t : e.targets) {
          AdmittedWorkload v = t.victim();
          workloads.evict(v);
          evictedNow.add(v.key());
          released.add(v.cq);
          preempted.add(new Preemption(v.key(), v.cq.name, e.pending.key(), t.reason(), cq.path(), v.cq.path()));
        }
        // Kueue's cycle usage: the preemptor's usage stays reserved for the rest of the cycle, so a later head of the
        // cohort cannot take the quota just freed for it (else two heads can preempt each other forever), nor the
        // nodes its topology assignment takes once the victims are gone
        cq.addUsage(a.frs(), a.values(), 1);
        reserved.add(new Held(cq, a.frs(), a.values()));
        holdTopology(e, now);
        // Kueue's markPreemptionOutcome: the next cycle reconsiders every flavor
        e.pending.lastAssignment = null;
        skipped(e, a.message() + "; pending the preemption of " + e.targets.size() + " workload(s)", reasons);
        continue;
      }
      if (!fits(cq, a.frs(), a.values())) {
        skipped(e, "workload no longer fits after processing another workload", reasons);
        continue;
      }
      if (podsReady.blocksAdmission(admitted.keys())) {
        // Kueue's waitForPodsReadyIfNeeded: the scheduler waits (here: the head keeps its place, not parked) until
        // every workload with quota is PodsReady, then admits it with this assignment; the next cycle searches from
        // the first flavor again rather than past the one Kueue would admit it in
        e.pending.lastAssignment = null;
        skipped(e, io.fleetkit.queueing.WaitForPodsReady.MESSAGE_WAITING_FOR_PODS_READY, reasons);
        continue;
      }
      QuotaReservation admission = new QuotaReservation(e.pending.key(), cq.name, a.podSets(), now, a.borrows());
      AdmittedWorkload w = new AdmittedWorkload(e.pending.workload, cq, a.frs(), a.values(), admission,
          admitted.nextSequence());
      e.pending.lastAssignment = null;
      pending.admit(e.pending);
      admitted.add(w);
      admittedNow.add(admission);
      checks.sync(w.key(), cq, admission);
      if (afs != null) {
        afs.reserved(w, now);
      }
      if (checks.has(w.key())) {
        checks.await(w.key());
      } else {
        podsReady.admitted(w.key(), now);
        if (afs != null) {
          afs.admitted(w, admitted.values(), this::isAdmitted, now);
        }
      }
      podsReady.quotaReserved(w.key(), now);
      LOG.debug("admitted {} in {}", w.key(), cq.name);
    }
    // Kueue's cache sees the admissions' status writes after the cycle, whose snapshot kept the generations
    for (QuotaReservation r : admittedNow) {
      registry.requireQueue(r.clusterQueue()).workloadUpdated();
    }
    heldTopology.clear();
    for (Held h : reserved) {
      h.cq().addUsage(h.frs(), h.values(), -1);
    }
    for (CqState cq : released) {
      pending.unparkTree(cq);
    }
    for (AdmittedWorkload w : evictAfter) {
      if (admitted.get(w.key()) == w) {
        workloads.evict(w);
        pending.unparkTree(w.cq);
      }
    }
    List<CheckOutcome> outcomes = evaluateChecks(now);
    if (!delayedAdmitted.isEmpty()) {
      delayedAdmitted.addAll(outcomes);
      outcomes = delayedAdmitted;
    }
    return new CycleResult(admittedNow, preempted, reasons, outcomes, podsReadyEvictions, replacements, queueStops);
  }

  /**
   * Kueue's {@code updateAssignmentIfNeeded} with TASRecomputeAssignmentWithinSchedulingCycle: an entry whose
   * topology assignments no longer fit, now that earlier heads of the cycle were admitted, evicted their targets or
   * hold nodes, is placed again; if its pod sets fit elsewhere it keeps its flavors with the new topology
   * assignments, else it is nominated again from the start (flavors, preemption targets and topology).
   */
  private Entry recomputeIfNeeded(Entry e, Set<String> evictedNow) {
    Assignment a = e.assignment;
    if (!TopologyPlacer.placed(a) || (a.mode() != Assignment.FIT && a.mode() != Assignment.PREEMPT)) {
      return e;
    }
    Workload wl = workloadOf(e);
    Set<AdmittedWorkload> victims = new HashSet<>();
    for (Target t : e.targets) {
      victims.add(t.victim());
    }
    // Kueue's fits: the quota first (a head whose quota no longer fits is skipped as it is), then the topology
    if (a.mode() == Assignment.PREEMPT) {
      if (overlaps(e.targets, evictedNow) || !fitsWithout(e.cq, a, e.targets)
          || topology.fits(wl, e.cq, a, tasView(victims))) {
        return e; // overlapping targets are Kueue's skip, below
      }
      return renominate(e);
    }
    if (!fits(e.cq, a.frs(), a.values())) {
      return e;
    }
    Assignment again = topology.place(wl, e.cq, a, tasView(Set.of()));
    if (again.mode() == Assignment.FIT) {
      Entry r = new Entry(e.pending, e.cq, again);
      r.share = e.share;
      return r;
    }
    return renominate(e);
  }

  /**
   * Nominates {@code e}'s head again from the first flavor (Kueue's {@code updateAssignmentIfNeeded} clears {@code
   * LastAssignment} before the recomputation, so that it reaches every flavor); the new search's progress is the
   * head's.
   */
  private Entry renominate(Entry e) {
    e.pending.lastAssignment = null;
    return nominate(e.pending, e.cq);
  }

  /** The workload an entry's assignment is for (a partially admitted one has smaller counts). */
  private static Workload workloadOf(Entry e) {
    Workload wl = e.pending.workload;
    List<PodSetAssignment> pas = e.assignment.podSets();
    int[] counts = new int[wl.podSets().size()];
    boolean reduced = false;
    for (int i = 0; i < counts.length; i++) {
      PodSet ps = wl.podSets().get(i);
      counts[i] = ps.count();
      for (PodSetAssignment pa : pas) {
        if (pa.name().equals(ps.name()) && pa.count() != ps.count()) {
          counts[i] = pa.count();
          reduced = true;
        }
      }
    }
    return reduced ? wl.withCounts(counts) : wl;
  }

  /** Holds the nodes of a preemptor's topology assignments for the rest of the cycle. */
  private void holdTopology(Entry e, Instant now) {
    Assignment a = e.assignment;
    if (TopologyPlacer.placed(a)) {
      QuotaReservation held = new QuotaReservation(e.pending.key(), e.cq.name, a.podSets(), now, a.borrows());
      heldTopology.add(new AdmittedWorkload(workloadOf(e), e.cq, a.frs(), a.values(), held, -1));
    }
  }

  /** Queues the workloads whose Retry delay has passed (Kueue's requeue after {@code requeueAt}). */
  private void releaseBackoff(Instant now) {
    for (PendingWorkload p : pending.releaseBackoff(now)) {
      podsReady.requeued(p.key());
    }
  }

  /**
   * Asks the check controllers about every pending check of every workload with reserved quota whose checks are not
   * all ready, in reservation order, and reacts to the states (Kueue's workload controller).
   */
  private List<CheckOutcome> evaluateChecks(Instant now) {
    List<CheckOutcome> out = new ArrayList<>();
    if (!checks.anyAwaiting()) {
      return out;
    }
    for (AdmittedWorkload w : checks.reservedAwaiting(admitted::get)) {
      checks.ask(w, now);
      CheckOutcome o = workloads.react(w.key(), now);
      if (o != null) {
        out.add(o);
        checks.stopAwaiting(w.key());
      }
    }
    return out;
  }

  /**
   * Sets the state of one check of a pending or reserved workload (as a check controller writes the Workload's
   * status) and reacts to it.
   */
  public @Nullable CheckOutcome setCheckStates(String key, List<AdmissionCheckState> updates) {
    WorkloadCheckStates wc = checks.validate(key, workloadOf(key), updates);
    if (wc == null) {
      return null; // no updates (every update names one of its checks)
    }
    return workloads.setCheckStates(key, wc, updates);
  }

  private Workload workloadOf(String key) {
    AdmittedWorkload w = admitted.get(key);
    if (w != null) {
      return w.workload;
    }
    Workload wl = pending.workload(key);
    if (wl != null) {
      return wl;
    }
    throw new IllegalArgumentException("Workload " + key + ": not pending, reserved or deactivated");
  }

  /**
   * Sets whether all pods of a workload with quota are ready (as Kueue's job reconciler does) and returns its new
   * {@code PodsReady} condition.
   *
   * @throws IllegalArgumentException if the workload holds no quota
   */
  public io.fleetkit.queueing.PodsReadyCondition setPodsReady(String key, boolean ready) {
    return workloads.setPodsReady(key, ready);
  }

  /**
   * Sets the reclaimable pods of a workload (Kueue's {@code status.reclaimablePods}); {@link
   * WorkloadUpdates#setReclaimablePods} says what that does.
   *
   * @return whether they changed
   * @throws IllegalArgumentException if the engine does not know the workload
   * @throws io.fleetkit.api.ValidationException if a count names no pod set of the workload, is negative or above
   *     its pod set's count, or, while the workload holds quota, goes down or is removed
   */
  public boolean setReclaimablePods(String key, Map<String, Integer> counts) {
    return updates.setReclaimablePods(key, counts);
  }

  /**
   * The workload of {@code key} as submitted (pending, deactivated or holding quota), with its current priority, or
   * {@code null} if the engine does not know it.
   */
  public @Nullable Workload workload(String key) {
    return updates.workload(key);
  }

  /**
   * Changes the priority of a workload (Kueue's Workload update of {@code spec.priority} and its class); {@link
   * WorkloadUpdates#updatePriority} says what that does.
   *
   * @return whether the priority or its class changed
   * @throws IllegalArgumentException if the engine does not know the workload
   * @throws io.fleetkit.api.ValidationException if the change breaks {@link PriorityUpdate}'s rules
   */
  public boolean updatePriority(String key, io.fleetkit.queueing.WorkloadPriority next) {
    return updates.updatePriority(key, next);
  }

  /**
   * Adds or replaces a WorkloadPriorityClass; the workloads whose priority came from a class of that name take a new
   * value ({@link WorkloadUpdates#putWorkloadPriorityClass}).
   *
   * @return the keys of the workloads whose priority changed, in key order
   */
  public List<String> putWorkloadPriorityClass(io.fleetkit.queueing.WorkloadPriorityClass wpc) {
    return updates.putWorkloadPriorityClass(wpc);
  }

  /** Removes a WorkloadPriorityClass; the workloads that took its value keep it (Kueue ignores the deletion). */
  public boolean removeWorkloadPriorityClass(String name) {
    return updates.removeWorkloadPriorityClass(name);
  }

  public io.fleetkit.queueing.@Nullable WorkloadPriorityClass workloadPriorityClass(String name) {
    return updates.workloadPriorityClass(name);
  }

  /** The reclaimable pods of a workload, by pod set ({@link #setReclaimablePods}); empty when none. */
  public Map<String, Integer> reclaimablePods(String key) {
    return updates.reclaimablePods(key);
  }

  public io.fleetkit.queueing.@Nullable WaitForPodsReady waitForPodsReadyConfig() {
    return podsReady.config();
  }

  public io.fleetkit.queueing.@Nullable PodsReadyCondition podsReady(String key) {
    return podsReady.podsReady(key);
  }

  public io.fleetkit.queueing.@Nullable RequeueState requeueState(String key) {
    return podsReady.requeueState(key);
  }

  /**
   * Restores the requeue state of a pending or admitted workload (Kueue keeps it in the Workload's status); a pending
   * workload whose {@code requeueAt} is still ahead waits until then.
   */
  public void assumeRequeueState(String key, io.fleetkit.queueing.RequeueState state) {
    if (pending.queueOf(key) == null && !admitted.contains(key)) {
      throw new IllegalArgumentException("Workload " + key + ": not pending or admitted");
    }
    podsReady.restoreRequeueState(key, state);
    Instant at = state.requeueAt();
    if (at != null && at.isAfter(clock.instant())) {
      pending.delayQueued(key, at);
    }
  }

  /** The pending PodsReady timeout of an admitted workload, or {@code null} (none, or not enabled). */
  public io.fleetkit.queueing.WaitForPodsReady.@Nullable Timeout podsReadyTimeout(String key) {
    return podsReady.timeout(key, clock.instant());
  }

  /** Queues a deactivated workload again (Kueue: {@code spec.active} set back to true). */
  public boolean reactivate(String key) {
    PendingWorkloads.Deactivated d = pending.reactivate(key);
    if (d == null) {
      return false;
    }
    pending.enqueue(new PendingWorkload(d.workload(), admitted.nextSequence()), d.cq());
    return true;
  }

  public @Nullable String deactivatedMessage(String key) {
    return pending.deactivatedMessage(key);
  }

  public List<AdmissionCheckState> checkStates(String key) {
    return checks.states(key);
  }

  /**
   * Whether the workload has quota reserved, every check that applies to it is Ready and no pod set waits for its
   * delayed topology assignment.
   */
  public boolean isAdmitted(String key) {
    return workloads.isAdmitted(key);
  }

  /**
   * Kueue's {@code getAssignments} ({@code pkg/scheduler/scheduler.go}): the head's flavor searches resume after its
   * {@link FlavorScanProgress} unless that is {@linkplain FlavorScanProgress#outdated outdated} (then they start at the
   * first flavor), and the progress of the assignment nominated becomes the head's ({@code recordAssignment}).
   */
  private Entry nominate(PendingWorkload head, CqState cq) {
    FlavorScanProgress last = head.lastAssignment;
    if (last != null && last.outdated(cq.allocatableGeneration, schedulingCycle, head.workload.podSets())) {
      LOG.debug("flavor search of {} starts over: its progress is outdated", head.key());
      last = null;
    }
    Entry e = assignments(head, cq, last);
    // Kueue's recordAssignment: the nominated assignment's progress is the head's, whatever becomes of it
    head.lastAssignment = new FlavorScanProgress(e.assignment.lastTriedFlavorIdx(), cq.allocatableGeneration,
        schedulingCycle, head.workload.podSets());
    return e;
  }

  /**
   * Kueue's {@code getInitialAssignments}, every search resumed after {@code resume}: the full assignment if it fits,
   * or fits by preemption with targets; else, for a workload that may be admitted partially, the largest pod counts
   * from the minimum counts up that fit or fit by preempting ({@link PodSetReducer}); else the full assignment, without
   * targets.
   */
  private Entry assignments(PendingWorkload head, CqState cq, @Nullable FlavorScanProgress resume) {
    Workload wl = head.workload;
    Assignment full = assign(wl, cq, resume);
    Entry e = new Entry(head, cq, full);
    if (full.mode() == Assignment.FIT) {
      return e;
    }
    if (full.mode() == Assignment.PREEMPT) {
      e = withTargets(head, cq, wl, full);
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
      Assignment a = assign(reduced, cq, resume);
      if (a.mode() == Assignment.FIT) {
        return new Entry(head, cq, a);
      }
      if (a.mode() == Assignment.PREEMPT) {
        Entry r = withTargets(head, cq, reduced, a);
        if (!r.targets.isEmpty()) {
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

  /**
   * Requeues a head that cannot be admitted: at once, active, if its flavor search has flavors left to try (Kueue's
   * {@code requeueIfNotPresent} with {@code LastAssignment.PendingFlavors}), else parked or back at the head per the
   * queueing strategy.
   */
  private void inadmissible(Entry e, String reason, Map<String, String> reasons) {
    FlavorScanProgress progress = e.pending.lastAssignment;
    if (progress != null && progress.pendingFlavors()) {
      resumableInLastCycle++;
      skipped(e, reason, reasons);
      return;
    }
    e.pending.lastReason = reason;
    reasons.put(e.pending.key(), reason);
    if (e.cq.spec.queueingStrategy() == io.fleetkit.queueing.QueueingStrategy.BEST_EFFORT_FIFO) {
      parkedInLastCycle++;
    }
    pending.requeueInadmissible(e.pending);
  }

  /**
   * Whether another cycle could change anything: the last one admitted, preempted or parked a head (which exposes the
   * next one), or requeued one with flavors left to try (the next cycle tries them). A cycle that only requeued
   * StrictFIFO heads otherwise leaves the engine in a fixpoint.
   */
  public boolean mayProgress(CycleResult last) {
    return last.progressed() || parkedInLastCycle > 0 || resumableInLastCycle > 0;
  }

  private void skipped(Entry e, String reason, Map<String, String> reasons) {
    e.pending.lastReason = reason;
    reasons.put(e.pending.key(), reason);
    pending.requeue(e.pending);
  }

  /** Whether any queue has an active (not parked) pending workload. */
  public boolean hasActive() {
    return pending.hasActive();
  }

  /** How far the flavor search of pending workload {@code key} got, or {@code null} (none, or not pending). */
  @Nullable FlavorScanProgress flavorScanProgress(String key) {
    return pending.lastAssignment(key);
  }

  public @Nullable QuotaReservation admission(String key) {
    AdmittedWorkload w = admitted.get(key);
    return w == null ? null : w.admission;
  }

  public List<QuotaReservation> admitted(String clusterQueue) {
    List<QuotaReservation> out = new ArrayList<>();
    for (AdmittedWorkload w : registry.requireQueue(clusterQueue).admitted.values()) {
      out.add(w.admission);
    }
    return out;
  }

  public List<String> inadmissible(String clusterQueue) {
    return pending.parkedKeys(registry.requireQueue(clusterQueue));
  }

  public List<String> pending(String clusterQueue) {
    return pending.pendingKeys(registry.requireQueue(clusterQueue));
  }

  public int pendingCount() {
    return pending.pendingCount();
  }

  public int admittedCount() {
    return admitted.size();
  }

  /**
   * The dominant resource share of {@code clusterQueue} rounded down; {@link Integer#MAX_VALUE} when a queue of weight
   * 0 borrows.
   */
  public long share(String clusterQueue) {
    Drs d = DominantResourceShare.of(registry.requireQueue(clusterQueue), index);
    return d.weightMilli() == 0 && d.borrowing() ? Integer.MAX_VALUE : (long) Math.floor(d.weightedShare());
  }

  public Quantity usage(String clusterQueue, String flavor, String resource) {
    CqState cq = registry.requireQueue(clusterQueue);
    int fr = index.of(flavor, resource);
    return fr < 0 ? Quantity.ZERO : Quantity.ofMilli(cq.usage[fr]);
  }
}
