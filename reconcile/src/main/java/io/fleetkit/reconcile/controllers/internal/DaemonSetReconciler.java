package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.reconcile.controllers.DaemonSetPlacement;
import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.DaemonSet;
import io.fleetkit.api.apps.DaemonSetStatus;
import io.fleetkit.api.apps.DaemonSetUpdateStrategyType;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The DaemonSet reconciler, after {@code pkg/controller/daemon/daemon_controller.go} ({@code syncDaemonSet},
 * {@code manage}, {@code podsShouldBeOnNode}, {@code syncNodes}, {@code updateDaemonSetStatus}) and {@code update.go}
 * ({@code rollingUpdate}, {@code updatedDesiredNodeCounts}, {@code findUpdatedPodsOnNode}). One sync:
 *
 * <ol>
 *   <li>a set selecting everything gets a {@value #REASON_SELECTING_ALL} warning and nothing else; a set being
 *       deleted is left alone;
 *   <li>its pods are claimed through the {@link ControllerRefManager}, its history constructed
 *       ({@link DaemonSetRevisions});
 *   <li>{@code manage}: on every node, by {@link DaemonSetPods#nodeShouldRunDaemonPod}, a missing pod is created
 *       (pinned with node affinity {@code metadata.name In [node]}, labelled with the revision hash), pods on nodes
 *       that must not keep them are deleted, failed pods are deleted with a per-node backoff (a
 *       {@value #REASON_FAILED_DAEMON_POD} warning), succeeded pods are deleted, excess pods beyond the oldest are
 *       deleted (with surge, an old and a new pod may coexist until the new one is available), and unscheduled pods
 *       for nodes that are gone are deleted;
 *   <li>RollingUpdate replaces old pods within maxUnavailable, or surges new pods within maxSurge;
 *   <li>the history is truncated to {@code spec.revisionHistoryLimit} and the status written.
 * </ol>
 *
 * <p>Upstream waits between syncs for its informer to see its own writes (expectations); this reconciler keeps its
 * own view of the pods it created and deleted within the sync instead, so that the rolling update and the status of
 * the same sync see them (what upstream's unit tests observe through their fake pod control). The one stateful part
 * is the failed-pod backoff, shared by all syncs. Thread-safe.
 */
public final class DaemonSetReconciler implements Reconciler<DaemonSet> {
  private static final Logger LOG = LoggerFactory.getLogger(DaemonSetReconciler.class);

  /** Warning event on a set whose selector selects every pod. */
  public static final String REASON_SELECTING_ALL = "SelectingAll";
  /** Warning event when a failed daemon pod is deleted. */
  public static final String REASON_FAILED_DAEMON_POD = "FailedDaemonPod";
  /** Normal event when a succeeded daemon pod is deleted. */
  public static final String REASON_SUCCEEDED_DAEMON_POD = "SucceededDaemonPod";
  /** Upstream's {@code BurstReplicas}: most creates, and most deletes, per sync. */
  public static final int DEFAULT_BURST_REPLICAS = 250;
  /** Upstream's {@code SlowStartInitialBatchSize}. */
  static final int SLOW_START_INITIAL_BATCH_SIZE = 1;

  private final int burstReplicas;
  private final Supplier<String> nameSuffixes;
  private final FailedPodsBackoff failedPodsBackoff;

  /**
   * @param burstReplicas most creates and most deletes per sync
   * @param nameSuffixes the random part of generated pod names
   * @param failedPodsBackoff the delays between deletions of failed pods on one node
   */
  public DaemonSetReconciler(int burstReplicas, Supplier<String> nameSuffixes, FailedPodsBackoff failedPodsBackoff) {
    this.burstReplicas = burstReplicas;
    this.nameSuffixes = Objects.requireNonNull(nameSuffixes, "nameSuffixes");
    this.failedPodsBackoff = Objects.requireNonNull(failedPodsBackoff, "failedPodsBackoff");
  }

  /** The failed-pod backoff (for tests). */
  public FailedPodsBackoff failedPodsBackoff() {
    return failedPodsBackoff;
  }

  @Override
  public Result reconcile(ReconcileContext<DaemonSet> ctx) {
    DaemonSet ds = ctx.object().orElse(null);
    if (ds == null) {
      return Result.done(); // its pods and revisions go with it (garbage collector, owner references)
    }
    LabelSelector selector = ds.spec().selector();
    if (selector.matchLabels().isEmpty() && selector.matchExpressions().isEmpty()) {
      ctx.events().event(ds, Event.WARNING, REASON_SELECTING_ALL, "Sync",
          "This daemon set is selecting all pods. A non-empty selector is required.");
      return Result.done();
    }
    if (ds.metadata().deletionTimestamp() != null) {
      return Result.done(); // upstream: its history may be half gone; do nothing
    }
    List<Node> nodes = ctx.lister(Node.class).list();
    ControllerRefManager.Claim<Pod> claim = ControllerRefManager.forSync(ctx.store(), ds, selector)
        .claim(candidates(ctx.store(), ctx.lister(Pod.class), ds));
    if (claim.failed()) {
      LOG.debug("daemonset {}: claiming pods failed, requeueing: {}", ctx.key(), claim.errors());
      return Result.requeue();
    }
    Sync sync = new Sync(ctx, ds, nodes, claim.claimed());
    DaemonSetRevisions.History history;
    try {
      history = DaemonSetRevisions.construct(ctx.store(), new ControllerHistory(ctx.store()), ds, claim.claimed());
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("daemonset {}: constructing its history failed ({}), requeueing", ctx.key(), e.getMessage());
      return Result.requeue();
    }
    String hash = history.hash();
    RuntimeException failure = null;
    try {
      sync.manage(hash);
      if (ds.spec().updateStrategy().type() == DaemonSetUpdateStrategyType.RollingUpdate) {
        sync.rollingUpdate(hash);
      }
      DaemonSetRevisions.cleanup(new ControllerHistory(ctx.store()), ds, sync.view.values(), history.old());
    } catch (RuntimeException e) {
      failure = e;
    }
    RuntimeException statusFailure = null;
    try {
      sync.updateStatus(hash);
    } catch (RuntimeException e) {
      statusFailure = e;
    }
    RuntimeException first = failure != null ? failure : statusFailure;
    if (first instanceof ConflictException || first instanceof NotFoundException) {
      LOG.debug("daemonset {}: lost a race ({}), requeueing", ctx.key(), first.getMessage());
      return Result.requeue();
    }
    if (first != null) {
      throw first; // the controller retries with backoff and records the failure
    }
    return sync.requeueAfter == null ? Result.done() : Result.requeueAfter(sync.requeueAfter);
  }

  /**
   * The pods a claim looks at, read from the store so that a sync sees the creations and deletions of the previous
   * one (upstream waits on expectations instead): those its selector matches in its namespace, and those it controls
   * that no longer match (from the cache's controller index), to be released.
   */
  private static List<Pod> candidates(ObjectStore store, Lister<Pod> cache, DaemonSet ds) {
    String ns = ds.metadata().namespace();
    List<Pod> out = new ArrayList<>(store.list(Pod.class, ns, ds.spec().selector()).items());
    Set<String> seen = new HashSet<>();
    for (Pod p : out) {
      seen.add(p.metadata().uid());
    }
    for (Pod p : cache.byIndex(Lister.CONTROLLER_INDEX, ds.metadata().uid())) {
      if (!seen.contains(p.metadata().uid()) && p.metadata().namespace().equals(ns)) {
        store.get(Pod.class, ns, p.metadata().name()).ifPresent(out::add);
      }
    }
    return out;
  }

  /** One sync's state: the claimed pods as they are after this sync's own writes. */
  private final class Sync {
    private final ReconcileContext<DaemonSet> ctx;
    private final ObjectStore store;
    private final DaemonSet ds;
    private final List<Node> nodes;
    private final Instant now;
    /** Claimed pods by uid, in claim order; updated by this sync's creates and deletes. */
    final Map<String, Pod> view = new LinkedHashMap<>();
    @Nullable Duration requeueAfter;

    Sync(ReconcileContext<DaemonSet> ctx, DaemonSet ds, List<Node> nodes, List<Pod> claimed) {
      this.ctx = ctx;
      this.store = ctx.store();
      this.ds = ds;
      this.nodes = nodes;
      this.now = ctx.now();
      for (Pod p : claimed) {
        view.put(p.metadata().uid(), p);
      }
    }

    private void requeueAfter(Duration d) {
      if (requeueAfter == null || d.compareTo(requeueAfter) < 0) {
        requeueAfter = d;
      }
    }

    /** Upstream's {@code manage}. */
    void manage(String hash) {
      Map<String, List<Pod>> nodeToDaemonPods = DaemonSetPods.byNode(view.values(), false);
      List<String> nodesNeedingDaemonPods = new ArrayList<>();
      List<Pod> podsToDelete = new ArrayList<>();
      for (Node node : nodes) {
        podsShouldBeOnNode(node, nodeToDaemonPods, hash, nodesNeedingDaemonPods, podsToDelete);
      }
      podsToDelete.addAll(unscheduledPodsWithoutNode(nodeToDaemonPods));
      syncNodes(podsToDelete, nodesNeedingDaemonPods, hash);
    }

    /** Upstream's {@code getUnscheduledPodsWithoutNode}: pods pinned to a node that is gone and not yet bound. */
    private List<Pod> unscheduledPodsWithoutNode(Map<String, List<Pod>> nodeToDaemonPods) {
      Set<String> running = new HashSet<>();
      for (Node n : nodes) {
        running.add(n.metadata().name());
      }
      List<Pod> out = new ArrayList<>();
      nodeToDaemonPods.forEach((node, pods) -> {
        if (!running.contains(node)) {
          for (Pod p : pods) {
            if (p.spec().nodeName().isEmpty()) {
              out.add(p);
            }
          }
        }
      });
      return out;
    }

    /** Upstream's {@code podsShouldBeOnNode}. */
    private void podsShouldBeOnNode(Node node, Map<String, List<Pod>> nodeToDaemonPods, String hash,
        List<String> nodesNeeding, List<Pod> toDelete) {
      DaemonSetPlacement.ShouldRun sr = DaemonSetPlacement.nodeShouldRunDaemonPod(node, ds);
      String nodeName = node.metadata().name();
      List<Pod> found = nodeToDaemonPods.get(nodeName);
      boolean exists = found != null;
      List<Pod> daemonPods = exists ? found : List.of();
      if (sr.shouldRun() && !exists) {
        nodesNeeding.add(nodeName);
      } else if (sr.shouldContinueRunning()) {
        List<Pod> running = new ArrayList<>();
        for (Pod pod : daemonPods) {
          if (pod.metadata().deletionTimestamp() != null) {
            continue;
          }
          if (pod.status().phase() == PodPhase.Failed) {
            // upstream: the controller often fights a kubelet that rejects the pod; back off per node
            String key = FailedPodsBackoff.key(ds.metadata().uid(), nodeName);
            if (failedPodsBackoff.isInBackOffSinceUpdate(key, now)) {
              requeueAfter(failedPodsBackoff.get(key));
              continue;
            }
            failedPodsBackoff.next(key, now);
            ctx.events().event(ds, Event.WARNING, REASON_FAILED_DAEMON_POD, "Delete", "Found failed daemon pod "
                + pod.metadata().key() + " on node " + nodeName + ", will try to kill it");
            toDelete.add(pod);
          } else if (pod.status().phase() == PodPhase.Succeeded) {
            ctx.events().event(ds, Event.NORMAL, REASON_SUCCEEDED_DAEMON_POD, "Delete", "Found succeeded daemon pod "
                + pod.metadata().key() + " on node " + nodeName + ", will try to delete it");
            toDelete.add(pod);
          } else {
            running.add(pod);
          }
        }
        running.sort(DaemonSetPods.BY_CREATION_AND_PHASE);
        if (!DaemonSetPods.allowsSurge(ds)) {
          // more than one running pod: all but the oldest go
          for (int i = 1; i < running.size(); i++) {
            toDelete.add(running.get(i));
          }
          return;
        }
        if (running.size() <= 1) {
          if (running.isEmpty() && sr.shouldRun()) {
            nodesNeeding.add(nodeName); // surging: the node needs one pod that is not being deleted
          }
          return;
        }
        // with surge, an old and a new pod coexist only while the oldest new one is not yet available and the
        // oldest old one is ready; every other pod goes
        Pod oldestNew = null;
        Pod oldestOld = null;
        for (Pod pod : running) {
          if (hash.equals(pod.metadata().labels().get(WorkloadLabels.CONTROLLER_REVISION_HASH))) {
            if (oldestNew == null) {
              oldestNew = pod;
              continue;
            }
          } else if (oldestOld == null) {
            oldestOld = pod;
            continue;
          }
          toDelete.add(pod);
        }
        if (oldestNew != null && oldestOld != null) {
          if (!oldestOld.isReady()
              || ActivePods.isAvailable(oldestNew, ds.spec().minReadySeconds(), now)) {
            toDelete.add(oldestOld);
          }
        }
      } else if (exists) {
        for (Pod pod : daemonPods) {
          if (pod.metadata().deletionTimestamp() == null) {
            toDelete.add(pod); // the node must not run it any longer
          }
        }
      }
    }

    /** Upstream's {@code syncNodes}: creates in slow-start batches, then deletes, each capped at burstReplicas. */
    private void syncNodes(List<Pod> podsToDelete, List<String> nodesNeedingDaemonPods, String hash) {
      int createDiff = Math.min(nodesNeedingDaemonPods.size(), burstReplicas);
      int deleteDiff = Math.min(podsToDelete.size(), burstReplicas);
      PodTemplateSpec template = DaemonSetPods.createPodTemplate(ds.spec().template(),
          DaemonSetPods.templateGeneration(ds), hash);
      AtomicInteger next = new AtomicInteger();
      SlowStartBatch.Outcome created = SlowStartBatch.run(createDiff, SLOW_START_INITIAL_BATCH_SIZE,
          () -> create(template, nodesNeedingDaemonPods.get(next.getAndIncrement())));
      RuntimeException failure = created.error();
      for (int i = 0; i < deleteDiff; i++) {
        try {
          delete(podsToDelete.get(i));
        } catch (RuntimeException e) {
          if (failure == null) {
            failure = e;
          }
        }
      }
      if (failure != null) {
        throw failure;
      }
    }

    private void create(PodTemplateSpec template, String nodeName) {
      String base = ds.metadata().name();
      if (base.length() > 57) {
        base = base.substring(0, 57); // upstream's generateName truncation keeps names within 63 characters
      }
      ObjectMeta tm = template.metadata();
      ConflictException last = null;
      for (int attempt = 0; attempt < 3; attempt++) {
        ObjectMeta.Builder mb = ObjectMeta.builder().namespace(ds.metadata().namespace())
            .name(base + "-" + nameSuffixes.get()).labels(tm.labels()).annotations(tm.annotations())
            .finalizers(tm.finalizers()).ownerReference(OwnerReference.controllerOf(ds));
        ObjectMeta meta = TraceParent.inherit(ds.metadata(), mb).build();
        var spec = template.spec().toBuilder()
            .affinity(DaemonSetPods.replaceNodeNameNodeAffinity(template.spec().affinity(), nodeName)).build();
        try {
          Pod pod = store.create(new Pod(meta, spec, PodStatus.PENDING));
          view.put(pod.metadata().uid(), pod);
          ctx.events().event(ds, Event.NORMAL, EventRecorder.SUCCESSFUL_CREATE, "Create", "Created pod: "
              + meta.name());
          return;
        } catch (ConflictException e) {
          last = e; // name taken: draw another suffix, as the API server does for generateName
        } catch (RuntimeException e) {
          ctx.events().event(ds, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating: "
              + e.getMessage());
          throw e;
        }
      }
      ctx.events().event(ds, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating: "
          + last.getMessage());
      throw last;
    }

    private void delete(Pod pod) {
      ObjectMeta m = pod.metadata();
      try {
        store.delete(Pod.class, m.namespace(), m.name(), DeletePreconditions.uid(m.uid()));
        ctx.events().event(ds, Event.NORMAL, EventRecorder.SUCCESSFUL_DELETE, "Delete", "Deleted pod: " + m.name());
      } catch (NotFoundException e) {
        // already gone
      } catch (RuntimeException e) {
        ctx.events().event(ds, Event.WARNING, EventRecorder.FAILED_DELETE, "Delete", "Error deleting: "
            + e.getMessage());
        throw e;
      }
      Pod after = store.get(Pod.class, m.namespace(), m.name()).orElse(null);
      if (after == null || !after.metadata().uid().equals(m.uid())) {
        view.remove(m.uid());
      } else {
        view.put(m.uid(), after); // held by finalizers: terminating
      }
    }

    /**
     * Upstream's {@code updatedDesiredNodeCounts}: {maxSurge, maxUnavailable, desiredNumberScheduled}, with an empty
     * entry added to {@code nodeToDaemonPods} for every node that should run a pod and has none; unavailability 1
     * when both bounds come out 0 for a non-empty set of nodes.
     */
    int[] updatedDesiredNodeCounts(Map<String, List<Pod>> nodeToDaemonPods) {
      return DaemonSetReconciler.updatedDesiredNodeCounts(ds, nodes, nodeToDaemonPods);
    }

    /** Upstream's {@code rollingUpdate}. */
    void rollingUpdate(String hash) {
      Map<String, List<Pod>> nodeToDaemonPods = DaemonSetPods.byNode(view.values(), false);
      int[] counts = updatedDesiredNodeCounts(nodeToDaemonPods);
      int maxSurge = counts[0];
      int maxUnavailable = counts[1];
      int desiredNumberScheduled = counts[2];
      int minReady = ds.spec().minReadySeconds();
      Long generation = DaemonSetPods.templateGeneration(ds);
      if (maxSurge == 0) {
        // not surging: delete just enough old pods to stay within maxUnavailable; manage recreates them
        int numUnavailable = 0;
        List<Pod> allowedReplacementPods = new ArrayList<>();
        List<Pod> candidatePodsToDelete = new ArrayList<>();
        for (Map.Entry<String, List<Pod>> e : nodeToDaemonPods.entrySet()) {
          Pod[] found = findUpdatedPodsOnNode(e.getValue(), hash, generation);
          if (found == null) {
            numUnavailable++; // excess pods: the manage loop cleans up, count the node as unavailable
            continue;
          }
          Pod newPod = found[0];
          Pod oldPod = found[1];
          if ((oldPod == null && newPod == null) || (oldPod != null && newPod != null)) {
            numUnavailable++; // the manage loop creates or deletes here
          } else if (newPod != null) {
            if (!ActivePods.isAvailable(newPod, minReady, now)) {
              numUnavailable++;
            }
          } else if (!ActivePods.isAvailable(oldPod, minReady, now)) {
            allowedReplacementPods.add(oldPod); // not available anyway: replace it
            numUnavailable++;
          } else if (numUnavailable < maxUnavailable) {
            candidatePodsToDelete.add(oldPod);
          }
        }
        int remaining = Math.max(0, maxUnavailable - numUnavailable);
        remaining = Math.min(remaining, candidatePodsToDelete.size());
        List<Pod> oldPodsToDelete = new ArrayList<>(allowedReplacementPods);
        oldPodsToDelete.addAll(candidatePodsToDelete.subList(0, remaining));
        syncNodes(oldPodsToDelete, List.of(), hash);
        return;
      }
      // surging: a node with an unavailable old pod gets a new pod at once; up to maxSurge nodes with an available
      // old pod get one; an old pod goes once the new pod on its node is available
      List<Pod> oldPodsToDelete = new ArrayList<>();
      List<Pod> shouldNotRunPodsToDelete = new ArrayList<>();
      List<String> candidateNewNodes = new ArrayList<>();
      List<String> allowedNewNodes = new ArrayList<>();
      int numSurge = 0;
      int numAvailable = 0;
      Map<String, Node> byName = new LinkedHashMap<>();
      for (Node n : nodes) {
        byName.put(n.metadata().name(), n);
      }
      for (Map.Entry<String, List<Pod>> e : nodeToDaemonPods.entrySet()) {
        String nodeName = e.getKey();
        Pod[] found = findUpdatedPodsOnNode(e.getValue(), hash, generation);
        if (found == null) {
          numSurge++; // excess pods: the manage loop cleans up, count the node as surging
          continue;
        }
        Pod newPod = found[0];
        Pod oldPod = found[1];
        if (oldPod != null) {
          if (ActivePods.isAvailable(oldPod, minReady, now)) {
            numAvailable++;
          }
        } else if (newPod != null && ActivePods.isAvailable(newPod, minReady, now)) {
          numAvailable++;
        }
        if (oldPod == null) {
          continue; // nothing to replace; the manage loop creates a missing pod
        }
        if (newPod == null) {
          Node node = byName.get(nodeName);
          boolean shouldRun = node != null && DaemonSetPlacement.nodeShouldRunDaemonPod(node, ds).shouldRun();
          if (!ActivePods.isAvailable(oldPod, minReady, now)) {
            if (!shouldRun) {
              oldPodsToDelete.add(oldPod); // unavailable and on a node it no longer fits
              continue;
            }
            allowedNewNodes.add(nodeName);
          } else {
            if (!shouldRun) {
              shouldNotRunPodsToDelete.add(oldPod);
              continue;
            }
            if (numSurge >= maxSurge) {
              continue;
            }
            candidateNewNodes.add(nodeName);
          }
        } else {
          if (!ActivePods.isAvailable(newPod, minReady, now)) {
            numSurge++; // waiting for the new pod to become available
            continue;
          }
          oldPodsToDelete.add(oldPod); // the new pod is available: the old one goes
        }
      }
      int remainingSurge = maxSurge - numSurge;
      // with surge the owner expects full availability: a pod on a node it no longer fits goes only when a pod
      // elsewhere has become available in its stead
      int deletable = numAvailable - desiredNumberScheduled;
      if (deletable > 0) {
        oldPodsToDelete.addAll(shouldNotRunPodsToDelete.subList(0,
            Math.min(deletable, shouldNotRunPodsToDelete.size())));
      }
      remainingSurge = Math.min(Math.max(0, remainingSurge), candidateNewNodes.size());
      List<String> newNodesToCreate = new ArrayList<>(allowedNewNodes);
      newNodesToCreate.addAll(candidateNewNodes.subList(0, remainingSurge));
      syncNodes(oldPodsToDelete, newNodesToCreate, hash);
    }

    /** Upstream's {@code updateDaemonSetStatus} and {@code storeDaemonSetStatus}. */
    void updateStatus(String hash) {
      Map<String, List<Pod>> nodeToDaemonPods = DaemonSetPods.byNode(view.values(), false);
      int desired = 0;
      int current = 0;
      int misscheduled = 0;
      int ready = 0;
      int updated = 0;
      int available = 0;
      Long generation = DaemonSetPods.templateGeneration(ds);
      for (Node node : nodes) {
        boolean shouldRun = DaemonSetPlacement.nodeShouldRunDaemonPod(node, ds).shouldRun();
        List<Pod> pods = nodeToDaemonPods.get(node.metadata().name());
        boolean scheduled = pods != null && !pods.isEmpty();
        if (shouldRun) {
          desired++;
          if (!scheduled) {
            continue;
          }
          current++;
          List<Pod> sorted = new ArrayList<>(pods);
          sorted.sort(DaemonSetPods.BY_CREATION_AND_PHASE);
          Pod pod = sorted.get(0);
          if (pod.isReady()) {
            ready++;
            if (ActivePods.isAvailable(pod, ds.spec().minReadySeconds(), now)) {
              available++;
            }
          }
          if (DaemonSetPods.isPodUpdated(pod, hash, generation)) {
            updated++;
          }
        } else if (scheduled) {
          misscheduled++;
        }
      }
      int unavailable = desired - available;
      DaemonSet fresh = store.get(DaemonSet.class, ds.metadata().namespace(), ds.metadata().name())
          .filter(d -> d.metadata().uid().equals(ds.metadata().uid())).orElse(null);
      if (fresh == null) {
        return; // deleted meanwhile: nothing to write
      }
      DaemonSetStatus old = fresh.status();
      DaemonSetStatus status = new DaemonSetStatus(current, misscheduled, desired, ready, updated, available,
          unavailable, ds.metadata().generation(), old.collisionCount(), old.conditions());
      if (!status.equals(old)) {
        store.updateStatus(fresh.withStatus(status));
      }
      if (ds.spec().minReadySeconds() > 0 && ready != available) {
        requeueAfter(Duration.ofSeconds(ds.spec().minReadySeconds()));
      }
    }
  }

  /**
   * Upstream's {@code findUpdatedPodsOnNode}: the node's new and old pod among those not being deleted, or null when
   * it has more than one of either (the manage loop prunes those first).
   *
   * @return {newPod, oldPod}, each possibly null
   */
  static Pod @Nullable [] findUpdatedPodsOnNode(List<Pod> podsOnNode, String hash, @Nullable Long generation) {
    Pod newPod = null;
    Pod oldPod = null;
    for (Pod pod : podsOnNode) {
      if (pod.metadata().deletionTimestamp() != null) {
        continue;
      }
      if (DaemonSetPods.isPodUpdated(pod, hash, generation)) {
        if (newPod != null) {
          return null;
        }
        newPod = pod;
      } else {
        if (oldPod != null) {
          return null;
        }
        oldPod = pod;
      }
    }
    return new Pod[] {newPod, oldPod};
  }

  /**
   * Upstream's {@code updatedDesiredNodeCounts}: {maxSurge, maxUnavailable, desiredNumberScheduled} for the nodes
   * that should run the daemon pod, each such node without pods given an empty entry in {@code nodeToDaemonPods};
   * when both bounds are 0 for at least one node, unavailability 1 lets the update progress.
   */
  public static int[] updatedDesiredNodeCounts(DaemonSet ds, List<Node> nodes, Map<String, List<Pod>> nodeToDaemonPods) {
    int desired = 0;
    for (Node node : nodes) {
      if (!DaemonSetPlacement.nodeShouldRunDaemonPod(node, ds).shouldRun()) {
        continue;
      }
      desired++;
      nodeToDaemonPods.putIfAbsent(node.metadata().name(), new ArrayList<>());
    }
    int maxUnavailable = DaemonSetPods.unavailableCount(ds, desired);
    int maxSurge = DaemonSetPods.surgeCount(ds, desired);
    if (desired > 0 && maxUnavailable == 0 && maxSurge == 0) {
      maxUnavailable = 1;
    }
    return new int[] {maxSurge, maxUnavailable, desired};
  }
}
