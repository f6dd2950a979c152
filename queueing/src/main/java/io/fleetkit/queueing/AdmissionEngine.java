package io.fleetkit.queueing;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.queueing.internal.QueueScheduler;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Kueue-style quota admission: workloads submitted to {@link LocalQueue}s wait in their {@link ClusterQueue} until a
 * {@link #schedule() scheduling cycle} reserves quota for all of their pod sets at once.
 *
 * <p>Each cycle takes the head of every ClusterQueue, assigns flavors in order (borrowing from the cohort within the
 * borrowing and lending limits), admits those that fit, and issues preemptions for heads that fit only by preempting
 * ({@code withinClusterQueue}, {@code reclaimWithinCohort}, {@code borrowWithinCohort}, or fair sharing by dominant
 * resource share). A preemptor is admitted in a later cycle, as in Kueue; preempted workloads go back to their queue.
 * StrictFIFO heads block their queue; BestEffortFIFO parks an inadmissible head until quota is released in its cohort.
 * A ClusterQueue whose resource groups cover {@code pods} counts every pod of a workload as one {@code pods} unit
 * besides its requests (Kueue's implicit {@code pods} resource), so a {@code pods} quota limits the number of pods.
 *
 * <p>A ClusterQueue admits only workloads of the namespaces its {@link ClusterQueue#namespaceSelector() namespace
 * selector} matches (by the labels given with {@link Builder#namespace} or {@link #namespaceLabels}); the others wait,
 * parked, with Kueue's message. A ClusterQueue that names a ResourceFlavor the engine does not have is inactive, as in
 * Kueue ({@link #inactiveReason}): its workloads wait, untouched by the cycles, until the flavor is
 * {@link #addResourceFlavor added}.
 *
 * <p>Queues change at runtime as Kueue's objects do: {@link #putClusterQueue}, {@link #putLocalQueue} and {@link
 * #putCohort} add or replace, the {@code remove} methods delete. Admitted workloads keep their quota through a quota
 * decrease; parked workloads are tried again after a change. A queue with a {@link StopPolicy} other than {@code
 * None} admits nothing ({@code Hold}) and, with {@code HoldAndDrain}, evicts what it admitted ({@link
 * CycleResult#queueStops()}); a pending workload whose queues admit it not tells why ({@link #queueBlocker}).
 *
 * <p>Cohorts form Kueue's tree ({@link Cohort}, hierarchical cohorts): a queue borrows through its ancestors within
 * each level's borrowing and lending limits, the flavor assigner and the cycle prefer assignments that borrow from
 * the lowest subtree, and preemption reclaims first from the subtrees closest to the preemptor's quota (Kueue's
 * hierarchical advantage), regardless of priority.
 *
 * <p>Admission checks (Kueue's two-phase admission): a ClusterQueue may name {@link AdmissionCheck}s ({@link
 * ClusterQueue#admissionChecks()}, or per flavor {@link ClusterQueue#admissionChecksStrategy()}). A cycle's reservation
 * of quota ({@link QuotaReservation}, Kueue's {@code QuotaReserved}) then only starts the checks that apply to the
 * reservation's flavors; the workload is {@linkplain #isAdmitted admitted} once every one of them is {@link
 * CheckState#READY}. Checks are decided by the {@link AdmissionCheckController} registered for their controller name
 * (asked in every cycle about pending checks) or set with {@link #setCheckState}. A {@link CheckState#RETRY} check
 * evicts the workload (its quota released, its checks reset to pending) and queues it again after the check's
 * {@code requeueAfterSeconds}; a {@link CheckState#REJECTED} check deactivates it until {@link #reactivate}. A
 * ClusterQueue naming a missing or inactive check is inactive. Without checks a reservation is an admission, as
 * before.
 *
 * <p>Topology-aware scheduling (Kueue's TAS): a {@link ResourceFlavor} may name a {@link Topology} ({@link
 * Builder#topology}); the engine then knows the cluster's nodes ({@link #putNode}) and what pods it did not place use
 * on them ({@link #setNodeUsage}). A pod set with a {@link PodSetTopologyRequest} gets only flavors with a topology
 * that has its levels, a pod set without one only flavors without a topology (unless every flavor of its queue has
 * one: its request is then implied, unconstrained); a workload whose quota fits is admitted only if every such pod
 * set also gets a {@link TopologyAssignment} (Kueue's algorithm, {@code TopologyAssigner}), which its {@link
 * PodSetAssignment} carries. Topology assignments of admitted workloads use their nodes' capacity for later ones.
 * A workload whose pods would not fit even an empty topology waits (parked) until quota, nodes, node usage or
 * topologies change; one whose pods fit only once lower-priority workloads are gone preempts them as Kueue does: the
 * targets are chosen so that both the quota and the topology fit (the nodes' room their topology assignments free),
 * and the preemptor holds the nodes it will take for the rest of the cycle.
 *
 * <p>Delayed topology requests (Kueue's ProvisioningRequest checks with TAS): a pod set whose flavor with a topology
 * has a check of controller {@value AdmissionCheck#PROVISIONING_REQUEST_CONTROLLER} gets its quota without a topology
 * assignment ({@link DelayedTopologyRequest#PENDING}); once every check is Ready, the next cycle's second pass places
 * it against the nodes' room then (the quota is not checked again) and admits the workload ({@link
 * CycleResult#checks()}); if it does not fit it keeps its quota, its reason in {@link CycleResult#pending()}, and is
 * tried again next cycle.
 *
 * <p>Node replacement (Kueue's {@code TASFailedNodeReplacement} and the scheduler's second pass): a node that is
 * {@linkplain #removeNode removed}, has no {@code Ready} condition, or stays not Ready for the {@linkplain
 * Builder#nodeFailureDelay node failure delay} is recorded as unhealthy on the admitted workloads whose topology
 * assignments name it ({@link #unhealthyNodes}, Kueue's {@code status.unhealthyNodes}); a workload with a second failed
 * node is evicted. Each cycle first looks for a replacement for the pods of such a workload's unhealthy node, keeping
 * the rest of its assignment, in the same domain when its topology request is required or its slices need it, with
 * the pods' node selector, affinity and tolerations; the nodes it takes are taken for the heads after it. With none,
 * the workload is evicted at the end of the cycle ({@link Builder#failedNodeReplacementFailFast}, on by default) or
 * keeps its assignment and tries again. {@link CycleResult#nodeReplacements()} reports both. Kueue's earlier triggers
 * are modelled too: a workload none of whose pods on a NotReady node is progressing any more ({@link
 * #setProgressingPods}; {@link Builder#replaceNodeOnPodTermination}), and a Ready node's {@code NoSchedule} or {@code
 * NoExecute} taint the workload's pods there do not tolerate ({@link Builder#replaceNodeOnNodeTaints}); a workload
 * found healthy on a Ready node that changed has the node taken off its record.
 *
 * <p>All-or-nothing scheduling with timeouts (Kueue's {@code waitForPodsReady}, {@link Builder#waitForPodsReady}): the
 * job integration reports whether an admitted workload's pods are all ready ({@link #setPodsReady}, which keeps its
 * {@link PodsReadyCondition}); at the start of every cycle an admitted workload whose pods were not ready within the
 * timeout (or the recovery timeout) is evicted and queued again after an exponential backoff ({@link #requeueState}),
 * or deactivated once it was requeued {@code backoffLimitCount} times ({@link CycleResult#podsReadyEvictions()}).
 * With {@code blockAdmission} no workload is admitted while one with quota is not PodsReady (Kueue's scheduler blocks
 * until they are and then admits the head; the engine never blocks: the head keeps its place and is admitted by the
 * first cycle after).
 *
 * <p>Admission fair sharing (Kueue's {@code AdmissionFairSharing}, {@link Builder#admissionFairSharing}): a
 * ClusterQueue whose {@linkplain ClusterQueue#admissionMode() admission mode} is {@link
 * AdmissionMode#USAGE_BASED_ADMISSION_FAIR_SHARING} hands out its pending workloads by their LocalQueues' usage first,
 * lower first: each LocalQueue's consumed resources decay exponentially towards what its admitted workloads use,
 * sampled at the start of a cycle at most once per sampling interval ({@link #localQueueFairSharing}), plus an entry
 * penalty for each of its reservations not yet admitted, weighted by resource and divided by the LocalQueue's {@link
 * LocalQueue#fairSharingWeight() weight} ({@link #localQueueUsage}); then priority and queue-order time as always.
 *
 * <p>Priorities (Kueue's {@link WorkloadPriorityClass}): a workload records its priority with the class it came from
 * ({@link Workload#priorityClassSource()}); the engine holds the WorkloadPriorityClasses ({@link
 * #putWorkloadPriorityClass}, whose new value reaches the workloads of that class) and changes a workload's priority
 * with Kueue's rules ({@link #updatePriority}): a pending workload moves in its queue, one holding quota keeps it and
 * may then be preempted by a head that now outranks it.
 *
 * <p>Differences from Kueue: a preemption's victims are evicted (their quota and nodes free) within the cycle, and
 * balanced placement and preferred node affinity are not modelled; a NotReady node fails at the delay by default
 * ({@link Builder#replaceNodeDueToNotReadyOverFixedTime}, off in Kueue) as the engine sees pods only when told. A
 * flavor is given to a pod set only if
 * the pods tolerate its taints and their node selector and required node affinity match its node labels ({@link
 * ResourceFlavor}).
 *
 * <p>Thread-safe: every method holds the engine's lock.
 */
public final class AdmissionEngine {
  private final QueueScheduler scheduler;
  /** Kueue's events about the workloads; {@code null} without a recorder, so that nothing is built for none. */
  private final @org.jspecify.annotations.Nullable AdmissionEvents events;
  private final Clock clock;

  private AdmissionEngine(QueueScheduler scheduler, io.fleetkit.api.events.EventRecorder recorder, Clock clock) {
    this.scheduler = scheduler;
    this.clock = clock;
    this.events = AdmissionEvents.of(recorder, clock, scheduler);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Queues {@code workload} in the ClusterQueue of its LocalQueue. One whose LocalQueue is stopped, or names a
   * ClusterQueue the engine does not have, waits until that changes ({@link #queueBlocker}).
   *
   * @throws IllegalArgumentException if its LocalQueue is unknown or the key is already pending or admitted
   */
  public synchronized void submit(Workload workload) {
    scheduler.submit(Objects.requireNonNull(workload, "workload"));
  }

  /**
   * Records {@code workload} as already admitted (for example when restoring state), with {@code flavorByResource}
   * for every pod set, without checking quota. Kueue's tests set up their admitted workloads this way. A flavor for
   * {@code pods} counts every pod of the workload in it (as the engine's admissions in a ClusterQueue that covers
   * {@code pods} record it); without one, no pods are counted. The admission checks that apply to the reservation are
   * taken as {@link CheckState#READY} (the workload was admitted), so it is {@linkplain #isAdmitted admitted}. In a
   * queue set to {@code HoldAndDrain} (its ClusterQueue's or LocalQueue's) it is evicted at once, as Kueue's workload
   * controller would on its first reconcile ({@link CycleResult#queueStops()}).
   *
   * @throws IllegalArgumentException if the ClusterQueue is unknown, does not cover a requested resource (or
   *     {@code pods}, if given) in the given flavor, or the key is already pending or admitted
   */
  public synchronized QuotaReservation assumeAdmitted(
      Workload workload, String clusterQueue, Map<String, String> flavorByResource, Instant admittedAt) {
    return scheduler.assumeAdmitted(workload, clusterQueue, Map.copyOf(flavorByResource), admittedAt);
  }

  /**
   * As {@link #assumeAdmitted(Workload, String, Map, Instant)}, with the pod sets named in {@code admittedCounts}
   * admitted with that many pods (a partial admission, as {@link PodSetAssignment#count()} records it).
   *
   * @throws IllegalArgumentException as the other form, or if a count names no pod set of the workload or is not
   *     from the pod set's {@link PodSet#minCount() minCount} to its count
   */
  public synchronized QuotaReservation assumeAdmitted(Workload workload, String clusterQueue,
      Map<String, String> flavorByResource, Map<String, Integer> admittedCounts, Instant admittedAt) {
    return scheduler.assumeAdmitted(workload, clusterQueue, Map.copyOf(flavorByResource), Map.copyOf(admittedCounts),
        admittedAt);
  }

  /**
   * As {@link #assumeAdmitted(Workload, String, Map, Map, Instant)}, with the {@link TopologyAssignment}s of the pod
   * sets named in {@code topologyAssignments} (restoring a topology-aware admission: its pods take their nodes' room
   * from later assignments).
   *
   * @throws IllegalArgumentException as the other forms, or if a topology assignment names no pod set of the workload
   */
  public synchronized QuotaReservation assumeAdmitted(Workload workload, String clusterQueue,
      Map<String, String> flavorByResource, Map<String, Integer> admittedCounts,
      Map<String, TopologyAssignment> topologyAssignments, Instant admittedAt) {
    return scheduler.assumeAdmitted(workload, clusterQueue, Map.copyOf(flavorByResource), Map.copyOf(admittedCounts),
        Map.copyOf(topologyAssignments), admittedAt);
  }

  /**
   * Records {@code workload} as holding quota in {@code clusterQueue} with one {@link PodSetAssignment} per pod set, in
   * the workload's order (restoring Kueue's {@code status.admission} as it is: a flavor per resource for each pod set,
   * its count, its topology assignment and its {@link DelayedTopologyRequest}), without checking quota. The usage is
   * {@code count x requests} ({@code pods} counted when a flavor is given for it); a {@code resourceUsage} given must be
   * empty or that. The admission checks that apply to the reservation start {@link CheckState#PENDING} (set them with
   * {@link #setCheckStates}); the workload is {@linkplain #isAdmitted admitted} once they are all Ready and no pod set
   * waits for its delayed topology assignment, which the next cycle's second pass places. A reservation not admitted
   * in a stopped queue is released at once, as Kueue's workload controller would ({@link CycleResult#queueStops()}).
   *
   * @throws IllegalArgumentException if the ClusterQueue is unknown, the key is already pending or admitted, the
   *     assignments do not name the workload's pod sets in order, a count is not from the pod set's minCount to its
   *     count, a requested resource has no flavor the queue covers, a usage differs, or a pending delayed request
   *     has a topology assignment
   */
  public synchronized QuotaReservation assumeReserved(Workload workload, String clusterQueue,
      List<PodSetAssignment> podSets, Instant reservedAt) {
    return scheduler.assumeReserved(Objects.requireNonNull(workload, "workload"),
        Objects.requireNonNull(clusterQueue, "clusterQueue"), List.copyOf(podSets),
        Objects.requireNonNull(reservedAt, "reservedAt"));
  }

  /**
   * Removes a pending workload, or finishes an admitted one and releases its quota (which requeues parked workloads
   * of its cohort).
   *
   * @return whether the workload was known
   */
  public synchronized boolean delete(String workloadKey) {
    if (events != null) {
      events.deleted(workloadKey);
    }
    return scheduler.delete(workloadKey);
  }

  /** Runs one scheduling cycle (and records its events, {@link Builder#events}). */
  public synchronized CycleResult schedule() {
    return cycle();
  }

  private CycleResult cycle() {
    CycleResult r = scheduler.schedule();
    if (events != null) {
      events.cycle(r);
    }
    return r;
  }

  /**
   * Runs cycles until the engine reaches a fixpoint (a cycle admits, preempts and parks nothing, so the next would do
   * the same) or {@code maxCycles} ran.
   *
   * @return the results of the cycles that changed something
   */
  public synchronized List<CycleResult> scheduleUntilIdle(int maxCycles) {
    if (maxCycles < 1) {
      throw new IllegalArgumentException("admission engine: maxCycles " + maxCycles + " must be at least 1");
    }
    List<CycleResult> out = new ArrayList<>();
    for (int i = 0; i < maxCycles; i++) {
      CycleResult r = cycle();
      if (r.progressed()) {
        out.add(r);
      }
      if (!scheduler.mayProgress(r)) {
        break;
      }
    }
    return out;
  }

  /**
   * The quota reservation of {@code workloadKey}, if it holds quota (Kueue's {@code QuotaReserved}); with admission
   * checks that apply to it, it is admitted only once they are all ready ({@link #isAdmitted}).
   */
  public synchronized Optional<QuotaReservation> admission(String workloadKey) {
    return Optional.ofNullable(scheduler.admission(workloadKey));
  }

  /**
   * Whether {@code workloadKey} is admitted (Kueue's {@code Admitted}): it holds quota and every admission check that
   * applies to it is {@link CheckState#READY} (with no checks: whenever it holds quota).
   */
  public synchronized boolean isAdmitted(String workloadKey) {
    return scheduler.isAdmitted(workloadKey);
  }

  /**
   * The admission check states of {@code workloadKey} (Kueue's {@code status.admissionChecks}), sorted by name: for a
   * pending workload the checks that apply to every flavor of its queue, for one with quota those of its flavors;
   * empty for an unknown workload or one without checks.
   */
  public synchronized List<AdmissionCheckState> admissionChecks(String workloadKey) {
    return scheduler.checkStates(workloadKey);
  }

  /**
   * Sets the state of one admission check of a pending, reserved or deactivated workload (as an external check
   * controller writes it), and reacts at once: for a workload with quota, a Rejected check deactivates it, a Retry
   * check evicts it, and the last check turning Ready admits it. The state's transition time is its {@code
   * lastTransitionTime}, or the engine's clock if that is the epoch, and moves only when the state changes; the
   * retry count is the engine's.
   *
   * @return what the state did to the workload, if anything
   * @throws IllegalArgumentException if the workload is not pending, reserved or deactivated, or has no check of that
   *     name
   * @throws io.fleetkit.api.ValidationException if a pod set update names a pod set the workload does not have, has
   *     invalid labels, node selector or annotation keys, or changes the updates of a check that stays Ready
   */
  public synchronized Optional<CheckOutcome> setCheckState(String workloadKey, AdmissionCheckState state) {
    return setCheckStates(workloadKey, List.of(Objects.requireNonNull(state, "state")));
  }

  /**
   * As {@link #setCheckState}, for several checks of one workload written together (as one status update); the
   * engine reacts once to all of them (a Rejected check wins over a Retry one, as in Kueue).
   *
   * @throws IllegalArgumentException as {@link #setCheckState}, before any state is set
   * @throws io.fleetkit.api.ValidationException as {@link #setCheckState}, before any state is set
   */
  public synchronized Optional<CheckOutcome> setCheckStates(String workloadKey, List<AdmissionCheckState> states) {
    CheckOutcome o = scheduler.setCheckStates(Objects.requireNonNull(workloadKey, "workloadKey"), List.copyOf(states));
    if (o != null && events != null) {
      events.checks(List.of(o), clock.instant());
    }
    return Optional.ofNullable(o);
  }

  /**
   * Why {@code workloadKey} is deactivated ({@code The workload is deactivated due to AdmissionCheck in Rejected
   * state: "check"}), if a Rejected check deactivated it.
   */
  public synchronized Optional<String> deactivated(String workloadKey) {
    return Optional.ofNullable(scheduler.deactivatedMessage(workloadKey));
  }

  /**
   * Queues a deactivated workload again, with its checks pending (Kueue: setting {@code spec.active} back to true).
   *
   * @return whether the workload was deactivated
   */
  public synchronized boolean reactivate(String workloadKey) {
    boolean reactivated = scheduler.reactivate(workloadKey);
    if (reactivated && events != null) {
      events.reactivated(workloadKey);
    }
    return reactivated;
  }

  /**
   * Adds or replaces an AdmissionCheck (for example to set its {@code Active} condition); ClusterQueues that name it
   * become active or inactive accordingly.
   */
  public synchronized void putAdmissionCheck(AdmissionCheck check) {
    scheduler.putAdmissionCheck(Objects.requireNonNull(check, "check"));
  }

  /**
   * Removes an AdmissionCheck; ClusterQueues that name it become inactive.
   *
   * @return whether the engine had it
   */
  public synchronized boolean removeAdmissionCheck(String name) {
    return scheduler.removeAdmissionCheck(name);
  }

  /** The AdmissionCheck named {@code name}, if the engine has it. */
  public synchronized Optional<AdmissionCheck> admissionCheck(String name) {
    return Optional.ofNullable(scheduler.admissionCheck(name));
  }

  /**
   * Adds a ResourceFlavor (Kueue: creating one). A ClusterQueue that named it and misses no other flavor becomes
   * active and admits its waiting workloads from the next cycle.
   *
   * @throws IllegalArgumentException if the engine already has a flavor of that name
   */
  public synchronized void addResourceFlavor(ResourceFlavor flavor) {
    scheduler.addResourceFlavor(Objects.requireNonNull(flavor, "flavor"));
  }

  /**
   * Adds or replaces a ClusterQueue (Kueue: creating or updating one). Its quotas, cohort, queueing strategy,
   * preemption, namespace selector, admission checks and stop policy apply from the next cycle:
   *
   * <ul>
   *   <li>admitted workloads keep their quota, also where it now exceeds the queue's nominal quota (Kueue evicts
   *       nothing on a quota decrease; usage then only shrinks as they finish, and nothing more is admitted until it
   *       fits);
   *   <li>the parked (inadmissible) workloads of the queue's cohort tree, before and after the change, are tried
   *       again (Kueue requeues inadmissible workloads on a spec update), so a quota increase admits them;
   *   <li>a {@linkplain ClusterQueue#stopPolicy() stopped} queue admits nothing ({@link #clusterQueueActive} reason
   *       {@code Stopped}) and releases its reservations whose admission checks are not all Ready; with {@code
   *       HoldAndDrain} it also evicts its admitted workloads (reported by the next cycle's {@link
   *       CycleResult#queueStops()}); they wait in the queue until it is set back to {@code None}.
   * </ul>
   *
   * @throws IllegalArgumentException if the queue is terminating ({@link #removeClusterQueue}), or the queue's
   *     cohort would form a cohort cycle; the engine is then unchanged
   */
  public synchronized void putClusterQueue(ClusterQueue queue) {
    scheduler.putClusterQueue(Objects.requireNonNull(queue, "queue"));
  }

  /**
   * Removes a ClusterQueue (Kueue: deleting one). While workloads hold its quota it is terminating ({@link
   * #clusterQueueActive} reason {@code Terminating}, Kueue's finalizer): it admits nothing, releases the reservations
   * not yet admitted, and goes once the last of them finishes or is evicted. Its pending workloads then wait for a
   * ClusterQueue of that name ({@link #queueBlocker}: {@code ClusterQueue cq doesn't exist}).
   *
   * @return whether the engine had it
   */
  public synchronized boolean removeClusterQueue(String name) {
    return scheduler.removeClusterQueue(Objects.requireNonNull(name, "name"));
  }

  /** The ClusterQueue named {@code name} (terminating ones included), if the engine has it. */
  public synchronized Optional<ClusterQueue> clusterQueue(String name) {
    return Optional.ofNullable(scheduler.clusterQueue(Objects.requireNonNull(name, "name")));
  }

  /**
   * Adds or replaces a Cohort (Kueue: creating or updating one): its quotas and parent apply from the next cycle, and
   * the parked workloads of its tree, before and after, are tried again.
   *
   * @throws IllegalArgumentException if its parent would form a cycle; the engine is then unchanged
   */
  public synchronized void putCohort(Cohort cohort) {
    scheduler.putCohort(Objects.requireNonNull(cohort, "cohort"));
  }

  /**
   * Removes a declared Cohort (Kueue: deleting one): its quotas are gone; a name ClusterQueues or Cohorts still refer
   * to is a root without quota of its own again.
   *
   * @return whether the engine had it declared
   */
  public synchronized boolean removeCohort(String name) {
    return scheduler.removeCohort(Objects.requireNonNull(name, "name"));
  }

  /** The Cohort declared as {@code name}, if the engine has it (not the implicit roots ClusterQueues name). */
  public synchronized Optional<Cohort> cohort(String name) {
    return Optional.ofNullable(scheduler.cohort(Objects.requireNonNull(name, "name")));
  }

  /**
   * Adds or replaces a LocalQueue (Kueue: creating or updating one). A LocalQueue may name a ClusterQueue the engine
   * does not have: its workloads wait ({@link #queueBlocker}). A {@linkplain LocalQueue#stopPolicy() stopped} one's
   * pending workloads are not admitted, its reservations whose admission checks are not all Ready are released, and
   * with {@code HoldAndDrain} its admitted workloads are evicted (reported by the next cycle's {@link
   * CycleResult#queueStops()}); set back to {@code None}, its workloads queue again.
   *
   * @throws IllegalArgumentException if the engine has the queue with another {@code spec.clusterQueue} (immutable,
   *     as in Kueue)
   */
  public synchronized void putLocalQueue(LocalQueue queue) {
    scheduler.putLocalQueue(Objects.requireNonNull(queue, "queue"));
  }

  /**
   * Removes a LocalQueue (Kueue: deleting one): its pending workloads wait ({@link #queueBlocker}: {@code LocalQueue
   * lq doesn't exist}) until a LocalQueue of that name is added again, and its reservations not yet admitted are
   * released; admitted workloads keep their quota.
   *
   * @return whether the engine had it
   */
  public synchronized boolean removeLocalQueue(String namespace, String name) {
    return scheduler.removeLocalQueue(Objects.requireNonNull(namespace, "namespace"),
        Objects.requireNonNull(name, "name"));
  }

  /**
   * The admission fair sharing status of a LocalQueue (Kueue's {@code status.fairSharing.admissionFairSharingStatus}):
   * its decayed consumed resources and when they were last sampled. Empty until a cycle of an engine with {@link
   * Builder#admissionFairSharing} sampled it (or one was {@linkplain #assumeLocalQueueFairSharing restored}).
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   */
  public synchronized Optional<LocalQueueFairSharingStatus> localQueueFairSharing(String namespace, String name) {
    return Optional.ofNullable(scheduler.localQueueFairSharing(Objects.requireNonNull(namespace, "namespace"),
        Objects.requireNonNull(name, "name")));
  }

  /**
   * Restores a LocalQueue's admission fair sharing status (as Kueue's persisted status after a restart): the next
   * cycle seeds the LocalQueue's usage from it if the engine has none for it yet, and merges it once into usage that
   * reservations recorded before.
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   * @throws IllegalStateException if the engine was built without {@link Builder#admissionFairSharing}
   */
  public synchronized void assumeLocalQueueFairSharing(String namespace, String name,
      LocalQueueFairSharingStatus status) {
    scheduler.assumeLocalQueueFairSharing(Objects.requireNonNull(namespace, "namespace"),
        Objects.requireNonNull(name, "name"), Objects.requireNonNull(status, "status"));
  }

  /**
   * The usage by which admission fair sharing orders a LocalQueue's workloads now (Kueue's {@code CalculateUsage}):
   * {@code sum(resourceWeight * (consumed + pending penalties)) / weight}, infinite for a weight of zero; 0 on an
   * engine without admission fair sharing.
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   */
  public synchronized double localQueueUsage(String namespace, String name) {
    return scheduler.localQueueUsage(Objects.requireNonNull(namespace, "namespace"),
        Objects.requireNonNull(name, "name"));
  }

  /** The engine's admission fair sharing configuration, if it has one. */
  public synchronized Optional<AdmissionFairSharing> admissionFairSharing() {
    return Optional.ofNullable(scheduler.admissionFairSharingConfig());
  }

  /**
   * The {@code Active} condition of {@code clusterQueue} as Kueue reports it: {@code Ready}, or false with the first
   * reason ({@code Terminating}, {@code Stopped}, {@code FlavorNotFound}, {@code AdmissionCheckNotFound}, {@code
   * AdmissionCheckInactive}) and a message naming every one ({@code Can't admit new workloads: is stopped.}).
   *
   * @throws IllegalArgumentException if the ClusterQueue is unknown
   */
  public synchronized ActiveCondition clusterQueueActive(String clusterQueue) {
    return scheduler.clusterQueueActive(Objects.requireNonNull(clusterQueue, "clusterQueue"));
  }

  /**
   * The {@code Active} condition of a LocalQueue as Kueue reports it: false with reason {@code Stopped} ({@code
   * LocalQueue is stopped}), {@code ClusterQueueDoesNotExist} or {@code ClusterQueueIsInactive} ({@code Can't submit
   * new workloads to clusterQueue}), else {@code Ready}.
   *
   * @throws IllegalArgumentException if the LocalQueue is unknown
   */
  public synchronized ActiveCondition localQueueActive(String namespace, String name) {
    return scheduler.localQueueActive(Objects.requireNonNull(namespace, "namespace"),
        Objects.requireNonNull(name, "name"));
  }

  /**
   * Why the queues of pending {@code workloadKey} admit it not, as Kueue's {@code QuotaReserved=False} condition of a
   * workload without quota: reason {@code Misconfigured} with {@code LocalQueue lq doesn't exist} or {@code
   * ClusterQueue cq doesn't exist}, or reason {@code Suspended} with {@code LocalQueue lq is inactive} (stopped) or
   * {@code ClusterQueue cq is inactive} (stopped, terminating, or naming a missing flavor or check). Empty if they would
   * admit it, or it is not pending.
   */
  public synchronized Optional<QueueBlocker> queueBlocker(String workloadKey) {
    return Optional.ofNullable(scheduler.queueBlocker(Objects.requireNonNull(workloadKey, "workloadKey")));
  }

  /**
   * Why {@code clusterQueue} admits no workloads, as the message of Kueue's {@code Active=False} condition ({@link
   * #clusterQueueActive}; {@code Can't admit new workloads: is stopped.}, {@code Can't admit
   * new workloads: references missing ResourceFlavor(s): gpu-a100.}, {@code ... references missing AdmissionCheck(s):
   * prov, references inactive AdmissionCheck(s): budget.}), or empty if it is active.
   *
   * @throws IllegalArgumentException if the ClusterQueue is unknown
   */
  public synchronized Optional<String> inactiveReason(String clusterQueue) {
    return Optional.ofNullable(scheduler.inactiveReason(clusterQueue));
  }

  /**
   * Sets the labels of {@code namespace}, which ClusterQueues' {@link ClusterQueue#namespaceSelector() namespace
   * selectors} match, and, if they changed, requeues every parked workload (as Kueue does when a namespace changes).
   *
   * @throws io.fleetkit.api.ValidationException if a label is not a valid Kubernetes label
   */
  public synchronized void namespaceLabels(String namespace, Map<String, String> labels) {
    Builder.checkNamespace(Objects.requireNonNull(namespace, "namespace"), Objects.requireNonNull(labels, "labels"));
    scheduler.namespaceLabels(namespace, labels);
  }

  /** The ResourceFlavor named {@code name} (with its node labels), if the engine has it. */
  public synchronized Optional<ResourceFlavor> resourceFlavor(String name) {
    return Optional.ofNullable(scheduler.resourceFlavor(name));
  }

  /** The LocalQueue {@code namespace/name}, if the engine has it. */
  public synchronized Optional<LocalQueue> localQueue(String namespace, String name) {
    return Optional.ofNullable(scheduler.localQueue(namespace, name));
  }

  /**
   * The quota reservations of {@code clusterQueue}'s workloads (admitted ones, and those whose admission checks are
   * not all ready yet).
   */
  public synchronized List<QuotaReservation> admitted(String clusterQueue) {
    return scheduler.admitted(clusterQueue);
  }

  /** The keys of {@code clusterQueue}'s pending workloads: active ones in queue order, then parked ones. */
  public synchronized List<String> pending(String clusterQueue) {
    return scheduler.pending(clusterQueue);
  }

  /** The keys of {@code clusterQueue}'s parked (inadmissible, BestEffortFIFO) workloads. */
  public synchronized List<String> inadmissible(String clusterQueue) {
    return scheduler.inadmissible(clusterQueue);
  }

  public synchronized int pendingCount() {
    return scheduler.pendingCount();
  }

  /** How many workloads hold quota (admitted, or waiting for their admission checks). */
  public synchronized int admittedCount() {
    return scheduler.admittedCount();
  }

  /**
   * Kueue's dominant resource share of {@code clusterQueue}: what it borrows over what its parent cohort could lend it,
   * divided by its weight, rounded down (0 when it does not borrow or has no cohort, {@link Integer#MAX_VALUE} when a
   * queue of weight 0 borrows).
   */
  public synchronized long dominantResourceShare(String clusterQueue) {
    return scheduler.share(clusterQueue);
  }

  /**
   * Adds or replaces a Topology that flavors' {@link ResourceFlavor#topologyName()} refer to; parked workloads are
   * queued again.
   */
  public synchronized void putTopology(Topology topology) {
    scheduler.putTopology(Objects.requireNonNull(topology, "topology"));
  }

  /** The Topology named {@code name}, if the engine has it. */
  public synchronized Optional<Topology> topology(String name) {
    return Optional.ofNullable(scheduler.topology(name));
  }

  /**
   * Adds or replaces a node for topology-aware scheduling (its labels place it in topologies' domains; it counts only
   * while Ready and schedulable, and for a flavor only if it has the flavor's node labels); parked workloads are
   * queued again. A node without a {@code Ready} condition, or not Ready for the node failure delay (from its
   * condition's {@code lastTransitionTime}), fails as a removed one does; a node that becomes Ready again is taken off
   * the workloads' unhealthy nodes.
   */
  public synchronized void putNode(io.fleetkit.api.core.Node node) {
    scheduler.putNode(Objects.requireNonNull(node, "node"));
  }

  /**
   * Removes a node: admitted workloads whose topology assignments name it get it recorded as unhealthy (or are
   * evicted, if they had another), and the next cycle looks for a replacement.
   *
   * @return whether the engine had it
   */
  public synchronized boolean removeNode(String name) {
    return scheduler.removeNode(Objects.requireNonNull(name, "name"));
  }

  /**
   * The workloads with quota whose topology assignments place pods on {@code node}, oldest admission first (those a
   * failure of the node concerns).
   */
  public synchronized List<String> workloadsOn(String node) {
    return scheduler.workloadsOn(Objects.requireNonNull(node, "node"));
  }

  /**
   * Whether a node's not-Ready time has passed the node failure delay since the last cycle: the next cycle records
   * it as unhealthy on the workloads it hosts (and looks for replacements).
   */
  public synchronized boolean nodeFailuresDue() {
    return scheduler.nodeFailuresDue();
  }

  /**
   * How long a node may be not Ready before the workloads it hosts get it recorded as unhealthy ({@link
   * Builder#nodeFailureDelay}); the cycle after that time passes records it.
   */
  public synchronized java.time.Duration nodeFailureDelay() {
    return scheduler.nodeFailureDelay();
  }

  /**
   * The unhealthy nodes recorded for {@code workloadKey} (Kueue's {@code status.unhealthyNodes}), in the order they
   * failed; empty when none (or the workload is unknown). A successful replacement or an eviction clears them.
   */
  public synchronized List<String> unhealthyNodes(String workloadKey) {
    return scheduler.unhealthyNodes(Objects.requireNonNull(workloadKey, "workloadKey"));
  }

  /**
   * Restores the unhealthy nodes of a workload with quota (Kueue keeps them in the Workload's status, so a restarted
   * controller goes on replacing them); an empty list clears them.
   *
   * @throws IllegalArgumentException if the workload holds no quota, or a node name is empty or repeated
   */
  public synchronized void assumeUnhealthyNodes(String workloadKey, List<String> nodes) {
    scheduler.assumeUnhealthyNodes(Objects.requireNonNull(workloadKey, "workloadKey"), List.copyOf(nodes));
  }

  /**
   * Reports how many pods of {@code workloadKey} bound to {@code node} are progressing: neither deleted nor terminated
   * (Kueue's {@code hasProgressingPods}; {@link NodeReplacement#isProgressing} tells for one pod). With {@link
   * Builder#replaceNodeOnPodTermination} a workload with none progressing on a NotReady node, or on a node with a
   * taint it does not tolerate (or tolerates only for a while), gets the node recorded as unhealthy at once. Until
   * reported, the pods a topology assignment puts on a node count as progressing; reports end when the workload's
   * unhealthy nodes are cleared (replaced, evicted, finished).
   *
   * @return false, recording nothing, if the workload holds no quota
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public synchronized boolean setProgressingPods(String workloadKey, String node, int count) {
    return scheduler.progressingPods(Objects.requireNonNull(workloadKey, "workloadKey"),
        Objects.requireNonNull(node, "node"), count);
  }

  /**
   * Sets what pods the engine did not place use on {@code node}, {@code pods} included (Kueue's non-TAS usage: every
   * pod bound to the node and not terminated, its requests and one {@code pods}); parked workloads are queued again
   * when it does not grow.
   */
  public synchronized void setNodeUsage(String node, io.fleetkit.api.resource.ResourceList used) {
    scheduler.nodeUsage(Objects.requireNonNull(node, "node"), Objects.requireNonNull(used, "used"));
  }

  /**
   * Sets whether all pods of {@code workloadKey}, which holds quota, are ready (or succeeded), as Kueue's job
   * reconciler does, and returns its {@code PodsReady} condition ({@link PodsReadyCondition#next}). With {@code
   * waitForPodsReady}, an admitted workload whose condition stays false past the timeout is evicted by the next cycle.
   *
   * @throws IllegalArgumentException if the workload holds no quota
   */
  public synchronized PodsReadyCondition setPodsReady(String workloadKey, boolean ready) {
    return scheduler.setPodsReady(Objects.requireNonNull(workloadKey, "workloadKey"), ready);
  }

  /**
   * Sets the reclaimable pods of {@code workloadKey} by pod set name (Kueue's {@code status.reclaimablePods}, which
   * its job integration writes when fewer of a Job's pods remain to run than its parallelism): quota counts each pod
   * set's pods after reclaim, {@code count - min(reclaimable, count)}. A pending workload asks for that many pods; an
   * admitted one keeps its admission and holds its usage scaled down to them, and the quota it frees may admit
   * parked workloads of its cohort tree in the next cycle. An empty map clears them.
   *
   * @return whether they changed
   * @throws IllegalArgumentException if the workload is unknown
   * @throws io.fleetkit.api.ValidationException (Kueue's webhook) if a name is not one of the workload's pod sets, a
   *     count is negative or above its pod set's count, or, while the workload holds quota, a count goes down or an
   *     entry is removed
   */
  public synchronized boolean setReclaimablePods(String workloadKey, Map<String, Integer> countsByPodSet) {
    return scheduler.setReclaimablePods(Objects.requireNonNull(workloadKey, "workloadKey"),
        Objects.requireNonNull(countsByPodSet, "countsByPodSet"));
  }

  /**
   * The workload of {@code workloadKey} as submitted (pending, deactivated or holding quota), with its current
   * priority ({@link #updatePriority}).
   */
  public synchronized Optional<Workload> workload(String workloadKey) {
    return Optional.ofNullable(scheduler.workload(workloadKey));
  }

  /**
   * Changes the priority of {@code workloadKey} and the class it came from (Kueue's update of a Workload's {@code
   * spec.priority}, {@code priorityClassSource} and {@code priorityClassName}, which its job integration writes when
   * a job's {@value WorkloadPriorityClass#LABEL} label changes). A pending workload moves to its new place in its
   * queue (back to the active workloads if it was parked; its flavor search starts over); a workload holding quota
   * keeps it, its new priority counts when preemption picks victims, and the parked workloads of its cohort tree are
   * queued again (a higher-priority one may now preempt it).
   *
   * <p>Kueue's rules while the workload holds quota (the Workload CRD's CEL rules): the priority may change, the class
   * may be neither added nor removed, its source may not change, and its name may change only for a {@link
   * PriorityClassSource#WORKLOAD_PRIORITY_CLASS} source.
   *
   * @return whether the priority or its class changed
   * @throws IllegalArgumentException if the workload is unknown
   * @throws io.fleetkit.api.ValidationException naming the field and Kueue's rule if the change is not allowed
   */
  public synchronized boolean updatePriority(String workloadKey, WorkloadPriority priority) {
    return scheduler.updatePriority(Objects.requireNonNull(workloadKey, "workloadKey"),
        Objects.requireNonNull(priority, "priority"));
  }

  /**
   * Adds or replaces a WorkloadPriorityClass. When the class is new or its value changed, every workload whose
   * priority came from a class of that name and differs from the class's value takes the value, as {@link
   * #updatePriority} (Kueue's WorkloadPriorityClass reconciler, which its predicates run on a class created or its
   * value changed); a class put again with the same value changes no workload.
   *
   * @return the keys of the workloads whose priority changed, in key order
   */
  public synchronized List<String> putWorkloadPriorityClass(WorkloadPriorityClass wpc) {
    return scheduler.putWorkloadPriorityClass(Objects.requireNonNull(wpc, "wpc"));
  }

  /**
   * Removes a WorkloadPriorityClass; workloads keep the priority they took from it (Kueue does nothing on the
   * deletion), and a job naming it gets no new workload until it exists again.
   *
   * @return whether the engine had it
   */
  public synchronized boolean removeWorkloadPriorityClass(String name) {
    return scheduler.removeWorkloadPriorityClass(name);
  }

  /** The WorkloadPriorityClass of that name, if the engine has it. */
  public synchronized Optional<WorkloadPriorityClass> workloadPriorityClass(String name) {
    return Optional.ofNullable(scheduler.workloadPriorityClass(name));
  }

  /** The reclaimable pods of {@code workloadKey} by pod set name ({@link #setReclaimablePods}); empty when none. */
  public synchronized Map<String, Integer> reclaimablePods(String workloadKey) {
    return scheduler.reclaimablePods(workloadKey);
  }

  /**
   * The {@code PodsReady} condition of {@code workloadKey}, if {@link #setPodsReady} set one (an evicted workload keeps
   * its last one; it becomes {@code WaitForStart} when the workload gets quota again).
   */
  public synchronized Optional<PodsReadyCondition> podsReady(String workloadKey) {
    return Optional.ofNullable(scheduler.podsReady(workloadKey));
  }

  /**
   * The requeue state of {@code workloadKey} (Kueue's {@code status.requeueState}), if {@code waitForPodsReady}
   * evicted it: how many times, and until when it waits to be queued again.
   */
  public synchronized Optional<RequeueState> requeueState(String workloadKey) {
    return Optional.ofNullable(scheduler.requeueState(workloadKey));
  }

  /** The engine's {@code waitForPodsReady} configuration, if enabled. */
  public synchronized Optional<WaitForPodsReady> waitForPodsReady() {
    return Optional.ofNullable(scheduler.waitForPodsReadyConfig());
  }

  /**
   * Restores the requeue state of a pending or admitted workload (Kueue keeps it in the Workload's status, so a
   * restarted controller counts on from it); a pending workload whose {@code requeueAt} is ahead waits until then.
   *
   * @throws IllegalArgumentException if the workload is not pending or admitted
   */
  public synchronized void assumeRequeueState(String workloadKey, RequeueState state) {
    scheduler.assumeRequeueState(Objects.requireNonNull(workloadKey, "workloadKey"),
        Objects.requireNonNull(state, "state"));
  }

  /**
   * The PodsReady timeout that runs for admitted {@code workloadKey} (Kueue's {@code admittedNotReadyWorkload}): its
   * cause and how long until a cycle evicts it; empty if {@code waitForPodsReady} is not enabled, the workload is not
   * admitted or its pods are ready.
   */
  public synchronized Optional<WaitForPodsReady.Timeout> podsReadyTimeout(String workloadKey) {
    return Optional.ofNullable(scheduler.podsReadyTimeout(workloadKey));
  }

  /** How much of {@code resource} in {@code flavor} the admitted workloads of {@code clusterQueue} use. */
  public synchronized Quantity usage(String clusterQueue, String flavor, String resource) {
    return scheduler.usage(clusterQueue, flavor, resource);
  }

  /** Mutable builder; not thread-safe. */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private final List<ResourceFlavor> flavors = new ArrayList<>();
    private final List<ClusterQueue> clusterQueues = new ArrayList<>();
    private final List<Cohort> cohorts = new ArrayList<>();
    private final List<LocalQueue> localQueues = new ArrayList<>();
    private final List<AdmissionCheck> admissionChecks = new ArrayList<>();
    private final List<AdmissionCheckController> checkControllers = new ArrayList<>();
    private final Map<String, Map<String, String>> namespaces = new java.util.LinkedHashMap<>();
    private final Map<String, Topology> topologies = new java.util.LinkedHashMap<>();
    private final Map<String, WorkloadPriorityClass> priorityClasses = new java.util.LinkedHashMap<>();
    private final List<io.fleetkit.api.core.Node> nodes = new ArrayList<>();
    private boolean fairSharing;
    private java.time.@org.jspecify.annotations.Nullable Duration nodeFailureDelay;
    private @org.jspecify.annotations.Nullable Boolean failFast;
    private final List<ResourceTransformation> transformations = new ArrayList<>();
    private @org.jspecify.annotations.Nullable Boolean podTermination;
    private @org.jspecify.annotations.Nullable Boolean fixedTime;
    private @org.jspecify.annotations.Nullable Boolean taintTrigger;
    private @org.jspecify.annotations.Nullable WaitForPodsReady waitForPodsReady;
    private java.util.random.@org.jspecify.annotations.Nullable RandomGenerator random;
    private @org.jspecify.annotations.Nullable AdmissionFairSharing admissionFairSharing;
    private List<FairSharingStrategy> strategies =
        List.of(FairSharingStrategy.LESS_THAN_OR_EQUAL_TO_FINAL_SHARE, FairSharingStrategy.LESS_THAN_INITIAL_SHARE);
    private io.fleetkit.api.events.@org.jspecify.annotations.Nullable EventRecorder events;

    private Builder() {}

    /**
     * Where the engine records Kueue's events about the workloads (default {@link
     * io.fleetkit.api.events.EventRecorder#NOOP}, which costs nothing: no event and no note is built): {@code
     * QuotaReserved}, {@code Admitted}, {@code Pending}, {@code SecondPassFailed}, {@code Preempted}, {@code
     * PreemptedWorkload}, {@code AdmissionCheckRejected} and {@code EvictedDueTo<reason>}, each regarding its
     * Workload, with Kueue's type and note (docs/observability.md lists them). The recorder is called with the
     * engine's lock held; one that throws is logged and ignored.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder events(io.fleetkit.api.events.EventRecorder recorder) {
      Objects.requireNonNull(recorder, "recorder");
      if (events != null) {
        throw new IllegalStateException("admission engine: events was already set to " + events);
      }
      this.events = recorder;
      return this;
    }

    /** The clock that stamps admissions (default: the system UTC clock). */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    public Builder resourceFlavor(ResourceFlavor flavor) {
      flavors.add(Objects.requireNonNull(flavor, "flavor"));
      return this;
    }

    public Builder resourceFlavors(String... names) {
      for (String n : names) {
        resourceFlavor(ResourceFlavor.of(n));
      }
      return this;
    }

    public Builder clusterQueue(ClusterQueue queue) {
      clusterQueues.add(Objects.requireNonNull(queue, "queue"));
      return this;
    }

    /**
     * Declares a cohort of the cohort tree, with its parent and its own quotas. Cohorts named by ClusterQueues or as
     * parents need not be declared: they are roots without quota.
     */
    public Builder cohort(Cohort cohort) {
      cohorts.add(Objects.requireNonNull(cohort, "cohort"));
      return this;
    }

    /**
     * A WorkloadPriorityClass the engine starts with ({@link AdmissionEngine#putWorkloadPriorityClass} adds more).
     *
     * @throws IllegalArgumentException if a class of that name was given before (naming the old one)
     */
    public Builder workloadPriorityClass(WorkloadPriorityClass wpc) {
      Objects.requireNonNull(wpc, "wpc");
      WorkloadPriorityClass old = priorityClasses.putIfAbsent(wpc.name(), wpc);
      if (old != null) {
        throw new IllegalArgumentException("admission engine: WorkloadPriorityClass " + wpc.name()
            + " given twice (value " + old.value() + ", then " + wpc.value() + ")");
      }
      return this;
    }

    public Builder localQueue(LocalQueue queue) {
      localQueues.add(Objects.requireNonNull(queue, "queue"));
      return this;
    }

    /**
     * The labels of {@code namespace}, which ClusterQueues' namespace selectors match; a namespace not declared has no
     * labels.
     *
     * @throws IllegalArgumentException if the namespace was declared before
     * @throws io.fleetkit.api.ValidationException if the name is not a DNS label or a label is not a valid Kubernetes
     *     label
     */
    public Builder namespace(String namespace, Map<String, String> labels) {
      checkNamespace(Objects.requireNonNull(namespace, "namespace"), Objects.requireNonNull(labels, "labels"));
      Map<String, String> before = namespaces.putIfAbsent(namespace, Map.copyOf(labels));
      if (before != null) {
        throw new IllegalArgumentException("admission engine: namespace " + namespace + " already declared with labels "
            + before);
      }
      return this;
    }

    private static void checkNamespace(String namespace, Map<String, String> labels) {
      io.fleetkit.api.Violations v = new io.fleetkit.api.Violations("Namespace", "", namespace);
      v.dnsLabel("metadata.name", namespace);
      v.labels("metadata.labels", labels);
      v.throwIfAny();
    }

    /**
     * Adds a Topology that flavors may name (topology-aware scheduling).
     *
     * @throws IllegalArgumentException if a topology of that name was added before
     */
    public Builder topology(Topology topology) {
      Topology before = topologies.putIfAbsent(topology.name(), topology);
      if (before != null) {
        throw new IllegalArgumentException("admission engine: topology " + topology.name()
            + " already added with levels " + before.levels());
      }
      return this;
    }

    /** Adds nodes for topology-aware scheduling (see {@link AdmissionEngine#putNode}). */
    public Builder nodes(List<io.fleetkit.api.core.Node> nodes) {
      for (io.fleetkit.api.core.Node n : nodes) {
        this.nodes.add(Objects.requireNonNull(n, "node"));
      }
      return this;
    }

    /** Adds an AdmissionCheck that ClusterQueues may name. */
    public Builder admissionCheck(AdmissionCheck check) {
      admissionChecks.add(Objects.requireNonNull(check, "check"));
      return this;
    }

    /** Registers the controller that decides the admission checks of its {@link AdmissionCheckController#controllerName()}. */
    public Builder admissionCheckController(AdmissionCheckController controller) {
      checkControllers.add(Objects.requireNonNull(controller, "controller"));
      return this;
    }

    /**
     * Enables Kueue's {@code waitForPodsReady} (Configuration {@code waitForPodsReady}, present meaning enabled) with
     * {@code config}.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder waitForPodsReady(WaitForPodsReady config) {
      Objects.requireNonNull(config, "config");
      if (waitForPodsReady != null) {
        throw new IllegalStateException("admission engine: waitForPodsReady was already set to " + waitForPodsReady);
      }
      this.waitForPodsReady = config;
      return this;
    }

    /**
     * The random source of the jitter of {@code waitForPodsReady} requeue delays (default: an unseeded {@link
     * java.util.SplittableRandom}); give a seeded one for reproducible runs.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder random(java.util.random.RandomGenerator random) {
      Objects.requireNonNull(random, "random");
      if (this.random != null) {
        throw new IllegalStateException("admission engine: random was already set to " + this.random);
      }
      this.random = random;
      return this;
    }

    /**
     * How long a node may be not Ready before the pods of the workloads it hosts are replaced (Kueue's {@code
     * NodeFailureDelay}; default 30 seconds).
     *
     * @throws IllegalArgumentException if negative
     * @throws IllegalStateException if it was set before
     */
    public Builder nodeFailureDelay(java.time.Duration delay) {
      Objects.requireNonNull(delay, "delay");
      if (delay.isNegative()) {
        throw new IllegalArgumentException("admission engine: nodeFailureDelay " + delay + " must not be negative");
      }
      if (nodeFailureDelay != null) {
        throw new IllegalStateException("admission engine: nodeFailureDelay was already set to " + nodeFailureDelay);
      }
      this.nodeFailureDelay = delay;
      return this;
    }

    /**
     * Whether a workload whose unhealthy node has no replacement is evicted (Kueue's {@code
     * TASFailedNodeReplacementFailFast}, default true) or keeps its assignment and is tried again every cycle.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder failedNodeReplacementFailFast(boolean failFast) {
      if (this.failFast != null) {
        throw new IllegalStateException("admission engine: failedNodeReplacementFailFast was already set to "
            + this.failFast);
      }
      this.failFast = failFast;
      return this;
    }

    /**
     * Whether a node fails for a workload as soon as none of its pods there is progressing, on a NotReady node before
     * the node failure delay, or on a node with a taint its pods do not tolerate (Kueue's {@code
     * TASReplaceNodeOnPodTermination}, default true). The pods are reported with {@link
     * AdmissionEngine#setProgressingPods}; until they are, those a topology assignment puts on a node count as
     * progressing.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder replaceNodeOnPodTermination(boolean on) {
      if (podTermination != null) {
        throw new IllegalStateException("admission engine: replaceNodeOnPodTermination was already set to "
            + podTermination);
      }
      this.podTermination = on;
      return this;
    }

    /**
     * Whether a node NotReady for the node failure delay fails for every workload on it, progressing pods or not
     * (Kueue's {@code TASReplaceNodeDueToNotReadyOverFixedTime}). Default true, where Kueue's is false: the engine
     * learns pods only from {@link AdmissionEngine#setProgressingPods}, and without such reports this is what replaces
     * the pods of a node that stays NotReady. Without {@link #replaceNodeOnPodTermination} the delay always decides.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder replaceNodeDueToNotReadyOverFixedTime(boolean on) {
      if (fixedTime != null) {
        throw new IllegalStateException("admission engine: replaceNodeDueToNotReadyOverFixedTime was already set to "
            + fixedTime);
      }
      this.fixedTime = on;
      return this;
    }

    /**
     * Whether a Ready node's {@code NoSchedule} and {@code NoExecute} taints make it fail for the workloads on it whose
     * pods (with their flavors' and admission checks' tolerations) do not tolerate one, or tolerate one only for {@code
     * tolerationSeconds} and are no longer progressing there (Kueue's {@code TASReplaceNodeOnNodeTaints}, default
     * true).
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder replaceNodeOnNodeTaints(boolean on) {
      if (taintTrigger != null) {
        throw new IllegalStateException("admission engine: replaceNodeOnNodeTaints was already set to "
            + taintTrigger);
      }
      this.taintTrigger = on;
      return this;
    }

    /**
     * Adds a resource transformation (Kueue's Configuration {@code resources.transformations}): how a requested
     * resource counts against quota. The flavors, quota usage and preemption of every workload see its pods'
     * requests transformed; the topology placement sees the pods' own requests.
     *
     * @throws IllegalStateException if a transformation of the same input was added before
     */
    public Builder resourceTransformation(ResourceTransformation transformation) {
      Objects.requireNonNull(transformation, "transformation");
      for (ResourceTransformation t : transformations) {
        if (t.input().equals(transformation.input())) {
          throw new IllegalStateException("admission engine: resources.transformations already has input "
              + t.input() + ": " + t);
        }
      }
      transformations.add(transformation);
      return this;
    }

    /**
     * Enables admission fair sharing (Kueue's feature gate {@code AdmissionFairSharing} with the Configuration's
     * {@code admissionFairSharing}, present meaning enabled): ClusterQueues with {@link
     * AdmissionMode#USAGE_BASED_ADMISSION_FAIR_SHARING} order their workloads by their LocalQueues' usage.
     *
     * @throws IllegalStateException if it was set before
     */
    public Builder admissionFairSharing(AdmissionFairSharing config) {
      Objects.requireNonNull(config, "config");
      if (admissionFairSharing != null) {
        throw new IllegalStateException("admission engine: admissionFairSharing was already set to "
            + admissionFairSharing);
      }
      this.admissionFairSharing = config;
      return this;
    }

    /** Enables fair sharing (Kueue Configuration {@code fairSharing.enable}). */
    public Builder fairSharing(boolean enable) {
      this.fairSharing = enable;
      return this;
    }

    /** Kueue {@code fairSharing.preemptionStrategies}; one or two strategies. */
    public Builder fairSharingStrategies(List<FairSharingStrategy> strategies) {
      if (strategies.isEmpty() || strategies.size() > 2) {
        throw new IllegalArgumentException(
            "admission engine: fairSharing.preemptionStrategies " + strategies + " must have 1 or 2 entries");
      }
      this.strategies = List.copyOf(strategies);
      return this;
    }

    /**
     * A ClusterQueue that names a flavor the engine does not have is built inactive (Kueue's {@code FlavorNotFound}):
     * its workloads wait until {@link AdmissionEngine#addResourceFlavor} adds the flavor. A Cohort's quota in such a
     * flavor is counted as any other.
     *
     * A ClusterQueue that names an AdmissionCheck the engine does not have, or an inactive one, is built inactive.
     *
     * @throws IllegalArgumentException if a name is duplicated (two AdmissionChecks, or two check controllers of one
     *     controller name included), a LocalQueue names an unknown ClusterQueue, or Cohorts' parents form a cycle
     */
    public AdmissionEngine build() {
      QueueScheduler scheduler = new QueueScheduler(clock, flavors, clusterQueues, cohorts, localQueues, namespaces,
          fairSharing, strategies, admissionChecks, checkControllers);
      scheduler.nodeReplacement(nodeFailureDelay != null ? nodeFailureDelay : QueueScheduler.DEFAULT_NODE_FAILURE_DELAY,
          failFast == null || failFast, podTermination == null || podTermination, fixedTime == null || fixedTime,
          taintTrigger == null || taintTrigger);
      scheduler.resourceTransformations(transformations);
      for (WorkloadPriorityClass wpc : priorityClasses.values()) {
        scheduler.putWorkloadPriorityClass(wpc);
      }
      for (Topology t : topologies.values()) {
        scheduler.putTopology(t);
      }
      for (io.fleetkit.api.core.Node n : nodes) {
        scheduler.putNode(n);
      }
      if (admissionFairSharing != null) {
        scheduler.admissionFairSharing(admissionFairSharing);
      }
      if (waitForPodsReady != null) {
        scheduler.waitForPodsReady(waitForPodsReady, random != null ? random : new java.util.SplittableRandom());
      }
      return new AdmissionEngine(scheduler, events != null ? events : io.fleetkit.api.events.EventRecorder.NOOP,
          clock);
    }
  }
}
