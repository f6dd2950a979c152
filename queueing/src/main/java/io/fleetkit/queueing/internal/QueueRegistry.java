package io.fleetkit.queueing.internal;

import io.fleetkit.queueing.ActiveCondition;
import io.fleetkit.queueing.AdmissionCheck;
import io.fleetkit.queueing.AdmissionChecks;
import io.fleetkit.queueing.ClusterQueue;
import io.fleetkit.queueing.Cohort;
import io.fleetkit.queueing.FlavorQuotas;
import io.fleetkit.queueing.FlavorResourceQuota;
import io.fleetkit.queueing.LocalQueue;
import io.fleetkit.queueing.QueueBlocker;
import io.fleetkit.queueing.QueueStopEviction;
import io.fleetkit.queueing.ResourceFlavor;
import io.fleetkit.queueing.ResourceGroup;
import io.fleetkit.queueing.Workload;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The admission engine's queue configuration (Kueue's cache and queue manager on ResourceFlavor, AdmissionCheck,
 * ClusterQueue, Cohort and LocalQueue events): the objects by name, their validation, the flavor-resource {@link
 * FlavorResources index} and the cohort tree built from them, and the state each ClusterQueue derives from them
 * (missing flavors and checks, terminating, removed).
 *
 * <p>Adding, replacing or removing a ClusterQueue or Cohort builds the cohort tree again and gives every queue its
 * spec's quotas; an existing queue keeps its pending and admitted workloads, and the usage of {@code withQuota} is
 * counted again. A queue no longer named is handed to {@code onDrop} (the scheduler moves its pending workloads out)
 * before it leaves. The methods return the queues whose parked workloads should be tried again; moving pending
 * workloads, syncing their checks and enforcing stop policies on workloads with quota stay with the {@link
 * QueueScheduler}, which asks this registry where a workload is routed ({@link #route}) and what a stop does to it
 * ({@link #stopVerdict}).
 *
 * <p>Not thread-safe; the {@link io.fleetkit.queueing.AdmissionEngine} serializes every call.
 */
final class QueueRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(QueueRegistry.class);

  private final FlavorResources index = new FlavorResources();
  private final Map<String, ResourceFlavor> flavors = new LinkedHashMap<>();
  /** The engine's AdmissionChecks by name. */
  private final Map<String, AdmissionCheck> checks = new TreeMap<>();
  private final Map<String, CqState> queues = new LinkedHashMap<>();
  private final Map<String, CohortState> cohorts = new LinkedHashMap<>();
  /** The engine's Cohorts as declared, by name (Kueue's Cohort objects). */
  private final Map<String, Cohort> cohortSpecs = new LinkedHashMap<>();
  private final Map<String, LocalQueue> localQueues = new HashMap<>();
  /** LocalQueues removed at runtime (and not added again): workloads naming them are not queued. */
  private final Set<String> removedLocalQueues = new HashSet<>();
  /** The workloads holding quota (a live view), whose usage is counted again after every change of queues. */
  private final Collection<AdmittedWorkload> withQuota;
  /** Called with each queue that leaves the configuration, once marked removed and terminating. */
  private final Consumer<CqState> onDrop;
  /** The queue order of ClusterQueues with usage-based admission fair sharing, if the engine has it. */
  private @Nullable AfsOrder afsOrder;

  QueueRegistry(Collection<AdmittedWorkload> withQuota, Consumer<CqState> onDrop) {
    this.withQuota = withQuota;
    this.onDrop = onDrop;
  }

  /**
   * Adds the engine's AdmissionChecks.
   *
   * @throws IllegalArgumentException if two have one name
   */
  void addAdmissionChecks(List<AdmissionCheck> admissionChecks) {
    for (AdmissionCheck c : admissionChecks) {
      if (checks.put(c.name(), c) != null) {
        throw new IllegalArgumentException("admission engine: admission check " + c.name() + " added twice");
      }
    }
  }

  /**
   * Sets up the engine's flavors, ClusterQueues, Cohorts and LocalQueues.
   *
   * @throws IllegalArgumentException if two objects of a kind have one name, a LocalQueue names an unknown
   *     ClusterQueue, or the Cohorts' parents form a cycle
   */
  void configure(List<ResourceFlavor> flavorList, List<ClusterQueue> clusterQueues, List<Cohort> cohortList,
      List<LocalQueue> locals) {
    for (ResourceFlavor f : flavorList) {
      if (flavors.put(f.name(), f) != null) {
        throw new IllegalArgumentException("admission engine: resource flavor " + f.name() + " added twice");
      }
    }
    Map<String, ClusterQueue> specs = new LinkedHashMap<>();
    for (ClusterQueue cq : clusterQueues) {
      if (specs.put(cq.name(), cq) != null) {
        throw new IllegalArgumentException("admission engine: ClusterQueue " + cq.name() + " added twice");
      }
    }
    Map<String, Cohort> cohortMap = new LinkedHashMap<>();
    for (Cohort c : cohortList) {
      if (cohortMap.put(c.name(), c) != null) {
        throw new IllegalArgumentException("admission engine: Cohort " + c.name() + " added twice");
      }
    }
    applyQueues(specs, cohortMap);
    advanceAsIfAddedInOrder();
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
  }

  /** The cohort {@code name} of the tree (declared, or named by a queue or as a parent), or {@code null}. */
  @Nullable CohortState cohortState(String name) {
    return cohorts.get(name);
  }

  FlavorResources index() {
    return index;
  }

  /**
   * Enables admission fair sharing: every ClusterQueue whose admission mode is usage-based is ordered by {@code order}
   * from now on (its pending workloads reordered).
   */
  void admissionFairSharing(AfsOrder order) {
    this.afsOrder = order;
    for (CqState cq : queues.values()) {
      cq.pending = cq.pending.withStrategy(cq.spec.queueingStrategy(), orderOf(cq.spec));
    }
  }

  /** The order of {@code spec}'s queue: {@link AfsOrder} with usage-based admission fair sharing, else none. */
  @Nullable AfsOrder orderOf(ClusterQueue spec) {
    return afsOrder != null && spec.usageBasedAdmissionFairSharing() ? afsOrder : null;
  }

  /** Whether {@code cq} orders by admission fair sharing (the engine has it and the queue's mode is usage-based). */
  boolean usesAdmissionFairSharing(CqState cq) {
    return orderOf(cq.spec) != null;
  }

  /** The LocalQueues, in no particular order (a live view). */
  Collection<LocalQueue> localQueues() {
    return localQueues.values();
  }

  /** The admission fair sharing weight of LocalQueue {@code lqKey}; 1 (Kueue's fallback) if the engine lacks it. */
  double fairSharingWeight(String lqKey) {
    LocalQueue lq = localQueues.get(lqKey);
    return lq == null ? 1.0 : lq.fairSharingWeight().toBigDecimal().doubleValue();
  }

  /** The engine's flavors by name (a live map: the assigner and the topology placer read it). */
  Map<String, ResourceFlavor> flavors() {
    return flavors;
  }

  /** The ClusterQueues' states, in configuration order (a live view). */
  Collection<CqState> queues() {
    return queues.values();
  }

  @Nullable CqState queue(String name) {
    return queues.get(name);
  }

  /** @throws IllegalArgumentException if the engine has no ClusterQueue {@code name} */
  CqState requireQueue(String name) {
    CqState q = queues.get(name);
    if (q == null) {
      throw new IllegalArgumentException("admission engine: ClusterQueue \"" + name + "\" is not known");
    }
    return q;
  }

  @Nullable ClusterQueue clusterQueue(String name) {
    CqState cq = queues.get(name);
    return cq == null ? null : cq.spec;
  }

  @Nullable Cohort cohort(String name) {
    return cohortSpecs.get(name);
  }

  @Nullable LocalQueue localQueue(String namespace, String name) {
    return localQueues.get(namespace + "/" + name);
  }

  /** The LocalQueue {@code wl} names, or {@code null} if the engine does not have it. */
  @Nullable LocalQueue localQueueOf(Workload wl) {
    return localQueues.get(wl.namespace() + "/" + wl.queueName());
  }

  @Nullable ResourceFlavor resourceFlavor(String name) {
    return flavors.get(name);
  }

  @Nullable AdmissionCheck admissionCheck(String name) {
    return checks.get(name);
  }

  /** Adds or replaces an AdmissionCheck; the queues that name it are updated (active or not). */
  void putAdmissionCheck(AdmissionCheck check) {
    checks.put(check.name(), check);
    updateChecks();
  }

  /** Removes an AdmissionCheck; the queues that name it become inactive. */
  boolean removeAdmissionCheck(String name) {
    boolean known = checks.remove(name) != null;
    updateChecks();
    return known;
  }

  /**
   * Adds a ResourceFlavor; ClusterQueues that named it, and miss no other flavor, become active.
   *
   * @throws IllegalArgumentException if the engine already has a flavor of that name
   */
  void addResourceFlavor(ResourceFlavor flavor) {
    if (flavors.containsKey(flavor.name())) {
      throw new IllegalArgumentException("admission engine: resource flavor " + flavor.name() + " already exists");
    }
    flavors.put(flavor.name(), flavor);
    updateMissingFlavors();
  }

  /**
   * Adds or replaces a ClusterQueue.
   *
   * @return the queues of its cohort tree, before and after
   * @throws IllegalArgumentException if the queue is terminating, or the new spec would form a cohort cycle or break
   *     the fair-sharing restriction (nothing changes)
   */
  List<CqState> putClusterQueue(ClusterQueue spec) {
    CqState old = queues.get(spec.name());
    if (old != null && old.terminating) {
      throw new IllegalArgumentException("ClusterQueue " + spec.name() + ": is terminating (removed while "
          + old.admitted.size() + " workload(s) hold its quota) and cannot be updated until they finish");
    }
    List<CqState> touched = new ArrayList<>();
    if (old != null) {
      treeQueues(old, touched);
    }
    String oldCohort = old == null ? null : old.spec.cohort();
    boolean resourcesChanged = old == null || !CqState.sameQuotas(old.spec, spec)
        || !Objects.equals(oldCohort, spec.cohort());
    Map<String, ClusterQueue> specs = specs();
    specs.put(spec.name(), spec);
    applyQueues(specs, cohortSpecs);
    CqState now = queues.get(spec.name());
    if (resourcesChanged) {
      if (oldCohort != null && !oldCohort.equals(spec.cohort())) {
        advanceTree(oldCohort);
      }
      if (now.cohort != null) {
        advanceTree(now.cohort.name);
      } else {
        now.allocatableGeneration++;
      }
    }
    treeQueues(now, touched);
    return touched;
  }

  /**
   * Marks {@code cq} terminating if workloads still hold its quota (Kueue's {@code resource-in-use} finalizer).
   *
   * @return whether it is terminating now
   */
  boolean terminateIfInUse(CqState cq) {
    if (!cq.admitted.isEmpty()) {
      cq.terminating = true;
      return true;
    }
    return false;
  }

  /** Drops ClusterQueue {@code name} from the configuration. */
  void removeClusterQueue(String name) {
    Map<String, ClusterQueue> specs = specs();
    String cohort = specs.remove(name).cohort();
    applyQueues(specs, cohortSpecs);
    advanceTree(cohort);
  }

  /**
   * Drops every terminating queue no workload holds quota of any more.
   *
   * @return whether any was dropped
   */
  boolean dropTerminated() {
    Map<String, ClusterQueue> specs = null;
    List<String> cohortsLeft = new ArrayList<>();
    for (CqState cq : queues.values()) {
      if (cq.terminating && cq.admitted.isEmpty()) {
        if (specs == null) {
          specs = specs();
        }
        specs.remove(cq.name);
        cohortsLeft.add(cq.spec.cohort());
      }
    }
    if (specs != null) {
      applyQueues(specs, cohortSpecs);
      for (String cohort : cohortsLeft) {
        advanceTree(cohort);
      }
      return true;
    }
    return false;
  }

  /**
   * Adds or replaces a Cohort.
   *
   * @return the queues of its tree, before and after
   * @throws IllegalArgumentException if its parent would form a cycle (nothing changes)
   */
  List<CqState> putCohort(Cohort cohort) {
    List<CqState> touched = new ArrayList<>();
    CohortState before = cohorts.get(cohort.name());
    String oldParent = null;
    if (before != null) {
      before.root().collectQueues(touched);
      oldParent = before.parent == null ? null : before.parent.name;
    }
    Map<String, Cohort> next = new LinkedHashMap<>(cohortSpecs);
    next.put(cohort.name(), cohort);
    applyQueues(specs(), next);
    CohortState now = cohorts.get(cohort.name());
    if (oldParent != null && (now.parent == null || !oldParent.equals(now.parent.name))) {
      advanceTree(oldParent);
    }
    // Kueue's AddOrUpdateCohort recomputes the cohort's tree twice: in updateCohort, and again with its info metrics
    advanceTree(cohort.name());
    advanceTree(cohort.name());
    now.root().collectQueues(touched);
    return touched;
  }

  /** Whether the engine has Cohort {@code name} declared. */
  boolean hasCohort(String name) {
    return cohortSpecs.containsKey(name);
  }

  /**
   * Removes a declared Cohort: its quotas are gone, and a name ClusterQueues or Cohorts still refer to is a root
   * without quota again.
   *
   * @return the queues of its tree, before and after
   */
  List<CqState> removeCohort(String name) {
    List<CqState> touched = new ArrayList<>();
    CohortState before = cohorts.get(name);
    before.root().collectQueues(touched);
    String oldParent = before.parent == null ? null : before.parent.name;
    Map<String, Cohort> next = new LinkedHashMap<>(cohortSpecs);
    next.remove(name);
    applyQueues(specs(), next);
    CohortState after = cohorts.get(name);
    if (after != null) {
      advance(after);
      after.root().collectQueues(touched);
    }
    advanceTree(oldParent);
    return touched;
  }

  /**
   * Adds or replaces a LocalQueue; its {@code spec.clusterQueue} cannot change (Kueue's API rule).
   *
   * @throws IllegalArgumentException if the engine has the queue with another {@code spec.clusterQueue}
   */
  void putLocalQueue(LocalQueue lq) {
    LocalQueue old = localQueues.get(lq.key());
    if (old != null && !old.clusterQueue().equals(lq.clusterQueue())) {
      throw new IllegalArgumentException("LocalQueue " + lq.key() + ": spec.clusterQueue \"" + lq.clusterQueue()
          + "\": field is immutable (is \"" + old.clusterQueue() + "\")");
    }
    localQueues.put(lq.key(), lq);
    removedLocalQueues.remove(lq.key());
  }

  /**
   * Removes a LocalQueue; workloads naming it are not queued until it is added again.
   *
   * @return whether the engine had it
   */
  boolean removeLocalQueue(String namespace, String name) {
    String key = namespace + "/" + name;
    if (localQueues.remove(key) == null) {
      return false;
    }
    removedLocalQueues.add(key);
    return true;
  }

  /**
   * Where a pending workload waits (Kueue's queue manager): the ClusterQueue of its LocalQueue; for a workload whose
   * LocalQueue the engine never had (one restored into a queue), {@code current}; none if its LocalQueue is stopped or
   * was removed, or the ClusterQueue was dropped.
   */
  @Nullable CqState route(Workload wl, @Nullable CqState current) {
    String lqKey = wl.namespace() + "/" + wl.queueName();
    LocalQueue lq = localQueues.get(lqKey);
    CqState cq;
    if (lq != null) {
      if (lq.stopPolicy().stops()) {
        return null;
      }
      cq = queues.get(lq.clusterQueue());
    } else {
      cq = removedLocalQueues.contains(lqKey) ? null : current;
    }
    return cq == null || cq.removed ? null : cq;
  }

  /**
   * What the stop policies of {@code w}'s queues, its LocalQueue's removal or its ClusterQueue's termination do to it
   * ({@link QueueStates#stopVerdict}), or {@code null} if it keeps its quota.
   *
   * @param admitted whether {@code w} is admitted (rather than holding a reservation whose checks are not all Ready)
   */
  @Nullable QueueStopEviction stopVerdict(AdmittedWorkload w, boolean admitted) {
    String lqKey = w.workload.namespace() + "/" + w.workload.queueName();
    return QueueStates.stopVerdict(w.key(), w.cq.name, admitted, w.workload.queueName(),
        localQueues.get(lqKey), removedLocalQueues.contains(lqKey), w.cq.spec.stopPolicy(), w.cq.terminating);
  }

  /** Kueue's {@code Active} condition of a LocalQueue ({@code localqueue_controller.go}). */
  ActiveCondition localQueueActive(String namespace, String name) {
    LocalQueue lq = localQueues.get(namespace + "/" + name);
    if (lq == null) {
      throw new IllegalArgumentException("admission engine: LocalQueue \"" + namespace + "/" + name
          + "\" is not known");
    }
    CqState cq = queues.get(lq.clusterQueue());
    return QueueStates.localQueueActive(lq, cq == null ? null : cq.active());
  }

  /**
   * Kueue's {@code getQueueBlocker} for pending {@code wl} waiting in {@code cq} ({@code null} when unrouted).
   */
  @Nullable QueueBlocker blocker(Workload wl, @Nullable CqState cq) {
    LocalQueue lq = localQueueOf(wl);
    return QueueStates.blocker(wl.queueName(), lq, cq == null ? null : cq.name, cq != null && cq.active());
  }

  /**
   * Advances the {@linkplain CqState#allocatableGeneration generation} of every queue in the tree of cohort {@code
   * name} (Kueue's {@code updateCohortResourceNode} from the tree's root, run when a quota or a member of the tree
   * changed); nothing if the engine has no such cohort.
   */
  private void advanceTree(@Nullable String name) {
    CohortState c = name == null ? null : cohorts.get(name);
    if (c != null) {
      advance(c.root());
    }
  }

  /** Advances the generation of every queue in {@code cohort}'s subtree. */
  private static void advance(CohortState cohort) {
    List<CqState> members = new ArrayList<>();
    cohort.collectQueues(members);
    for (CqState cq : members) {
      cq.allocatableGeneration++;
    }
  }

  /**
   * Advances the generations of the queues set up at once as Kueue's cache would had they been added one by one in
   * order: each addition advances the queues of its tree added before it, and itself.
   */
  private void advanceAsIfAddedInOrder() {
    Set<CqState> added = new HashSet<>();
    for (CqState cq : queues.values()) {
      added.add(cq);
      List<CqState> tree = new ArrayList<>();
      treeQueues(cq, tree);
      for (CqState q : tree) {
        if (added.contains(q)) {
          q.allocatableGeneration++;
        }
      }
    }
  }

  /** Every queue of {@code cq}'s cohort tree, or {@code cq} alone without a cohort, added to {@code out}. */
  private static void treeQueues(CqState cq, List<CqState> out) {
    CohortState c = cq.cohort;
    if (c == null) {
      out.add(cq);
    } else {
      c.root().collectQueues(out);
    }
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
    updateChecks();
  }

  /**
   * Kueue's {@code updateWithAdmissionChecks}: marks the checks every ClusterQueue names that the engine does not
   * have, or that are inactive; a queue with any is inactive.
   */
  private void updateChecks() {
    for (CqState cq : queues.values()) {
      List<String> missing = new ArrayList<>();
      List<String> inactive = new ArrayList<>();
      for (String name : cq.spec.admissionCheckNames()) {
        AdmissionCheck c = checks.get(name);
        if (c == null) {
          missing.add(name);
        } else if (!c.active()) {
          inactive.add(name);
        }
      }
      cq.missingChecks = List.copyOf(missing);
      cq.inactiveChecks = List.copyOf(inactive);
      Set<String> provisioning = new HashSet<>();
      for (Map.Entry<String, Set<String>> e : AdmissionChecks.checksByFlavor(cq.spec).entrySet()) {
        AdmissionCheck c = checks.get(e.getKey());
        if (c != null && AdmissionCheck.PROVISIONING_REQUEST_CONTROLLER.equals(c.controllerName())) {
          provisioning.addAll(e.getValue());
        }
      }
      cq.provisioningFlavors = Set.copyOf(provisioning);
    }
  }

  /**
   * Makes {@code specs} and {@code nextCohorts} the engine's ClusterQueues and Cohorts (Kueue's cache and queue
   * manager on ClusterQueue and Cohort events): the cohort tree is built again, every queue gets its spec's quotas
   * (an existing queue keeps its pending and admitted workloads), the admitted workloads' usage is counted again, and
   * queues no longer named are dropped ({@code onDrop}). Nothing changes if it throws.
   *
   * @throws IllegalArgumentException if the Cohorts' parents form a cycle
   */
  private void applyQueues(Map<String, ClusterQueue> specs, Map<String, Cohort> nextCohorts) {
    int known = index.size();
    try {
      configureQueues(specs, nextCohorts);
    } catch (IllegalArgumentException e) {
      if (index.size() != known && !queues.isEmpty()) {
        // the refused change indexed new flavor-resources: the queues' arrays are sized again, as they were otherwise
        configureQueues(specs(), new LinkedHashMap<>(cohortSpecs));
      }
      throw e;
    }
  }

  private void configureQueues(Map<String, ClusterQueue> specs, Map<String, Cohort> nextCohorts) {
    for (ClusterQueue cq : specs.values()) {
      indexQuotas(cq.resourceGroups());
    }
    for (Cohort c : nextCohorts.values()) {
      indexQuotas(c.resourceGroups());
    }
    Map<String, CohortState> tree = new LinkedHashMap<>();
    CohortTree.build(List.copyOf(nextCohorts.values()), index, tree);
    for (ClusterQueue cq : specs.values()) {
      String cohortName = cq.cohort();
      if (cohortName != null) {
        tree.computeIfAbsent(cohortName, n -> new CohortState(n, index.size()));
      }
    }
    // nothing below throws
    Map<String, CqState> next = new LinkedHashMap<>();
    for (ClusterQueue spec : specs.values()) {
      String cohortName = spec.cohort();
      CohortState cohort = cohortName == null ? null : tree.get(cohortName);
      CqState cq = queues.get(spec.name());
      if (cq == null) {
        cq = new CqState(spec, next.size(), cohort, index, new PendingQueue(spec.queueingStrategy(), orderOf(spec)));
      } else {
        cq.pending = cq.pending.withStrategy(spec.queueingStrategy(), orderOf(spec));
        cq.configure(spec, cohort, index);
      }
      if (cohort != null) {
        cohort.members.add(cq);
      }
      next.put(spec.name(), cq);
    }
    for (CqState gone : queues.values()) {
      if (!next.containsKey(gone.name)) {
        gone.removed = true;
        gone.terminating = true;
        onDrop.accept(gone);
        LOG.debug("ClusterQueue {} dropped", gone.name);
      }
    }
    queues.clear();
    queues.putAll(next);
    Map<String, Cohort> declared = new LinkedHashMap<>(nextCohorts);
    cohortSpecs.clear();
    cohortSpecs.putAll(declared);
    cohorts.clear();
    cohorts.putAll(tree);
    CohortTree.sumQuotas(cohorts.values());
    for (AdmittedWorkload w : withQuota) {
      w.cq.addUsage(w.frs, w.values, 1);
    }
    updateMissingFlavors();
  }

  private Map<String, ClusterQueue> specs() {
    Map<String, ClusterQueue> out = new LinkedHashMap<>();
    for (CqState cq : queues.values()) {
      out.put(cq.name, cq.spec);
    }
    return out;
  }
}
