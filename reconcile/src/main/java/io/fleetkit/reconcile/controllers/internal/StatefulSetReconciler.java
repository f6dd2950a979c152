package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetStatus;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The StatefulSet reconciler, after {@code pkg/controller/statefulset/stateful_set_control.go}
 * ({@code updateStatefulSet}): pods {@code <set>-0..N-1} with claims created first; OrderedReady creates in
 * ordinal order waiting for each predecessor to be Running and Ready and deletes from the highest ordinal down,
 * Parallel does all at once; failed or succeeded pods are recreated; RollingUpdate replaces pods of other revisions
 * from the highest ordinal down to {@code partition}, one at a time, waiting for each to be healthy; OnDelete only
 * gives recreated pods the new revision.
 *
 * <p>Revisions are {@link io.fleetkit.api.apps.ControllerRevision} objects owned by the set
 * ({@link StatefulSetRevisions}, upstream's {@code getStatefulSetRevisions}): the update revision holds the set's
 * template, the current revision the template of {@code status.currentRevision}, which pods below the partition are
 * (re)created from; each pod's {@code controller-revision-hash} label names its revision. Orphan revisions matching
 * the selector are adopted first; after the pass the history is truncated to {@code spec.revisionHistoryLimit}
 * revisions besides the live ones (current, update, and those of existing pods). The reconciler keeps no state.
 */
public final class StatefulSetReconciler implements Reconciler<StatefulSet> {
  private static final Logger LOG = LoggerFactory.getLogger(StatefulSetReconciler.class);

  @Override
  public Result reconcile(ReconcileContext<StatefulSet> ctx) {
    StatefulSet set = ctx.object().orElse(null);
    if (set == null) {
      return Result.done(); // its revisions and pods go with it (garbage collector, owner references)
    }
    Instant now = ctx.now();
    ControllerHistory history = new ControllerHistory(ctx.store());
    List<ControllerRevision> revisions;
    StatefulSetRevisions.Revisions revs;
    try {
      // upstream's sync: adopt orphan revisions, claim pods, then UpdateStatefulSet (list, sort, get revisions)
      revisions = new ArrayList<>(StatefulSetRevisions.list(history, set));
      StatefulSetRevisions.adoptOrphans(history, set, revisions);
      ControllerHistory.sort(revisions);
      revs = StatefulSetRevisions.get(history, set, revisions);
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("statefulset {}: revisions lost a race ({}), requeueing", ctx.key(), e.getMessage());
      return Result.requeue();
    }
    String currentRevision = revs.current().metadata().name();
    String updateRevision = revs.update().metadata().name();

    // upstream's getPodsForStatefulSet: ClaimPods with the membership filter (a pod of another name is released);
    // a failed adoption or release fails the sync
    ControllerRefManager.Claim<Pod> claim = ControllerRefManager.forSync(ctx.store(), set, set.spec().selector())
        .claim(ctx.lister(Pod.class), pod -> StatefulSetPods.isMemberOf(set, pod));
    if (claim.failed()) {
      LOG.debug("statefulset {}: claiming pods failed, requeueing: {}", ctx.key(), claim.errors());
      return Result.requeue();
    }
    Map<String, Pod> view = new LinkedHashMap<>();
    for (Pod p : claim.claimed()) {
      view.put(p.metadata().name(), p);
    }
    RuntimeException failure = null;
    if (set.metadata().deletionTimestamp() == null) {
      try {
        new Pass(ctx.store(), ctx.events(), set, revs, view, now).run();
      } catch (ConflictException | NotFoundException e) {
        LOG.debug("statefulset {}: lost a race ({}), requeueing", ctx.key(), e.getMessage());
        failure = e;
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    boolean race = false;
    try {
      StatefulSetStatus status = status(set, view.values(), currentRevision, updateRevision, revs.collisionCount(),
          now);
      if (!status.equals(set.status())) {
        ctx.store().updateStatus(set.withStatus(status));
      }
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("statefulset {}: status update lost a race ({}), requeueing", ctx.key(), e.getMessage());
      race = true;
    } catch (RuntimeException e) {
      if (failure == null) {
        failure = e;
      }
    } finally {
      // upstream truncates the history whether or not the update and the status write succeeded
      try {
        StatefulSetRevisions.truncateHistory(history, set, claim.claimed(), revisions, revs.current(), revs.update());
      } catch (ConflictException e) {
        LOG.debug("statefulset {}: truncating its history lost a race ({}), requeueing", ctx.key(),
            e.getMessage());
        race = true;
      }
    }
    if (race || failure instanceof ConflictException || failure instanceof NotFoundException) {
      return Result.requeue();
    }
    if (failure != null) {
      throw failure;
    }
    Duration wait = nextAvailability(set, view.values(), now);
    return wait == null ? Result.done() : Result.requeueAfter(wait);
  }

  /** One pass of {@code updateStatefulSet}; returns early wherever upstream does. Mutates {@code view}. */
  private final class Pass {
    private final ObjectStore store;
    private final EventRecorder events;
    private final StatefulSet set;
    private final String currentRevision;
    private final String updateRevision;
    private final PodTemplateSpec currentTemplate;
    private final PodTemplateSpec updateTemplate;
    private final Map<String, Pod> view;
    private final Instant now;
    private final boolean monotonic;

    Pass(ObjectStore store, EventRecorder events, StatefulSet set, StatefulSetRevisions.Revisions revisions,
        Map<String, Pod> view, Instant now) {
      this.store = store;
      this.events = events;
      this.set = set;
      this.currentRevision = revisions.current().metadata().name();
      this.updateRevision = revisions.update().metadata().name();
      this.currentTemplate = revisions.current().data();
      this.updateTemplate = revisions.update().data();
      this.view = view;
      this.now = now;
      this.monotonic = set.spec().podManagementPolicy() == PodManagementPolicy.OrderedReady;
    }

    void run() {
      int n = set.spec().replicas();
      Pod[] replicas = new Pod[n];
      List<Pod> condemned = new ArrayList<>();
      for (Pod p : view.values()) {
        int ord = StatefulSetPods.ordinal(p);
        if (ord >= 0 && ord < n) {
          replicas[ord] = p;
        } else {
          condemned.add(p);
        }
      }
      condemned.sort(StatefulSetPods.ascendingOrdinal());
      Pod firstUnhealthy = null;
      for (Pod p : replicas) {
        if (p != null && firstUnhealthy == null && !StatefulSetPods.isHealthy(p)) {
          firstUnhealthy = p;
        }
      }
      for (Pod p : condemned) {
        if (firstUnhealthy == null && !StatefulSetPods.isHealthy(p)) {
          firstUnhealthy = p;
        }
      }

      for (int i = 0; i < n; i++) {
        Pod pod = replicas[i];
        if (pod != null && pod.status().phase().isTerminal()) {
          // upstream: a failed or succeeded pod is deleted and recreated in the same pass
          LOG.debug("statefulset {}: pod {} is {}, recreating", ObjectKey.of(set), pod.metadata().name(),
              pod.status().phase());
          delete(pod);
          pod = null;
        }
        if (pod == null) {
          replicas[i] = create(i);
          if (monotonic) {
            return;
          }
          continue;
        }
        if (pod.status().phase() == PodPhase.Pending) {
          createMissingClaims(i); // upstream's RecreatesPVCForPendingPod: a pending pod waits for its claims
        }
        if (StatefulSetPods.isTerminating(pod)) {
          if (monotonic) {
            return;
          }
          continue;
        }
        if (!StatefulSetPods.isRunningAndAvailable(pod, set.spec().minReadySeconds(), now) && monotonic) {
          return;
        }
        if (!StatefulSetPods.identityMatches(set, pod) || !StatefulSetPods.storageMatches(set, pod)) {
          createMissingClaims(i);
          Pod fixed = StatefulSetPods.updateStorage(set, StatefulSetPods.updateIdentity(set, pod));
          replicas[i] = store.update(fixed);
          view.put(fixed.metadata().name(), replicas[i]);
        }
      }

      for (int target = condemned.size() - 1; target >= 0; target--) {
        Pod pod = condemned.get(target);
        if (StatefulSetPods.isTerminating(pod)) {
          if (monotonic) {
            return;
          }
          continue;
        }
        if (!StatefulSetPods.isRunningAndReady(pod) && monotonic && pod != firstUnhealthy) {
          return; // upstream: wait for the unhealthy predecessor, unless this is it
        }
        LOG.debug("statefulset {}: deleting condemned pod {}", ObjectKey.of(set), pod.metadata().name());
        delete(pod);
        if (monotonic) {
          return;
        }
      }

      if (set.spec().updateStrategy().type() == StatefulSetUpdateStrategyType.OnDelete) {
        return;
      }
      RollingUpdateStatefulSetStrategy ru = set.spec().updateStrategy().rollingUpdate();
      int updateMin = ru == null ? 0 : ru.partition();
      for (int target = n - 1; target >= updateMin; target--) {
        Pod pod = replicas[target];
        if (pod == null) {
          return;
        }
        if (!StatefulSetPods.revision(pod).equals(updateRevision) && !StatefulSetPods.isTerminating(pod)) {
          LOG.debug("statefulset {}: deleting pod {} of revision {} for update to {}", ObjectKey.of(set),
              pod.metadata().name(), StatefulSetPods.revision(pod), updateRevision);
          delete(pod);
          return;
        }
        if (!StatefulSetPods.isHealthy(pod)) {
          return;
        }
      }
    }

    /** Upstream's {@code newVersionedStatefulSetPod}: below the partition the current revision, else the update. */
    private Pod create(int ordinal) {
      RollingUpdateStatefulSetStrategy ru = set.spec().updateStrategy().rollingUpdate();
      boolean current = set.spec().updateStrategy().type() == StatefulSetUpdateStrategyType.RollingUpdate
          && ru != null && ordinal < ru.partition();
      String revision = current ? currentRevision : updateRevision;
      PodTemplateSpec template = current ? currentTemplate : updateTemplate;
      createMissingClaims(ordinal);
      Pod pod = StatefulSetPods.newPod(set, template, revision, ordinal);
      if (set.metadata().annotations().containsKey(io.fleetkit.api.tracing.Tracing.TRACEPARENT_ANNOTATION)) {
        pod = pod.withMetadata(TraceParent.inherit(set.metadata(), pod.metadata().toBuilder()).build());
      }
      LOG.debug("statefulset {}: creating pod {} at revision {}", ObjectKey.of(set), pod.metadata().name(),
          revision);
      Pod created;
      try {
        created = store.create(pod);
      } catch (ConflictException e) {
        throw e; // exists already: upstream sinks AlreadyExists without an event
      } catch (RuntimeException e) {
        // upstream's recordPodEvent: a refused create (a quota, a missing namespace) is a Warning event
        events.event(set, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "create Pod "
            + pod.metadata().name() + " in StatefulSet " + set.metadata().name() + " failed error: " + e.getMessage());
        throw e;
      }
      events.event(set, Event.NORMAL, EventRecorder.SUCCESSFUL_CREATE, "Create", "create Pod "
          + pod.metadata().name() + " in StatefulSet " + set.metadata().name() + " successful");
      view.put(created.metadata().name(), created);
      return created;
    }

    private void createMissingClaims(int ordinal) {
      for (PersistentVolumeClaim claim : StatefulSetPods.claims(set, ordinal)) {
        String ns = claim.metadata().namespace();
        if (store.get(PersistentVolumeClaim.class, ns, claim.metadata().name()).isEmpty()) {
          try {
            store.create(claim);
          } catch (ConflictException e) {
            // created meanwhile: a claim is never rebound to another ordinal, so the existing one is ours
          } catch (RuntimeException e) {
            // upstream's recordClaimEvent
            events.event(set, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "create Claim "
                + claim.metadata().name() + " for Pod " + set.metadata().name() + "-" + ordinal + " in StatefulSet "
                + set.metadata().name() + " failed error: " + e.getMessage());
            throw e;
          }
        }
      }
    }

    private void delete(Pod pod) {
      try {
        store.delete(Pod.class, pod.metadata().namespace(), pod.metadata().name(),
            DeletePreconditions.uid(pod.metadata().uid()));
      } catch (NotFoundException e) {
        // already gone
      }
      Pod after = store.get(Pod.class, pod.metadata().namespace(), pod.metadata().name()).orElse(null);
      if (after == null || !after.metadata().uid().equals(pod.metadata().uid())) {
        view.remove(pod.metadata().name());
      } else {
        view.put(pod.metadata().name(), after); // held by finalizers: terminating
      }
    }
  }

  /** Upstream's status computation plus {@code completeRollingUpdate}. */
  static StatefulSetStatus status(StatefulSet set, Iterable<Pod> pods, String currentRevision,
      String updateRevision, int collisionCount, Instant now) {
    int replicas = 0;
    int ready = 0;
    int available = 0;
    int current = 0;
    int updated = 0;
    for (Pod p : pods) {
      replicas++;
      if (StatefulSetPods.isRunningAndReady(p)) {
        ready++;
        if (StatefulSetPods.isRunningAndAvailable(p, set.spec().minReadySeconds(), now)) {
          available++;
        }
      }
      if (!StatefulSetPods.isTerminating(p)) {
        String rev = StatefulSetPods.revision(p);
        if (rev.equals(currentRevision)) {
          current++;
        }
        if (rev.equals(updateRevision)) {
          updated++;
        }
      }
    }
    String cur = currentRevision;
    if (set.spec().updateStrategy().type() == StatefulSetUpdateStrategyType.RollingUpdate && updated == replicas
        && ready == replicas) {
      current = updated;
      cur = updateRevision;
    }
    return new StatefulSetStatus(set.metadata().generation(), replicas, ready, current, updated, available, cur,
        updateRevision, collisionCount);
  }

  private static @Nullable Duration nextAvailability(StatefulSet set, Iterable<Pod> pods, Instant now) {
    int min = set.spec().minReadySeconds();
    if (min == 0) {
      return null;
    }
    Duration best = null;
    for (Pod p : pods) {
      Instant since = ActivePods.readyTime(p);
      if (since != null && !ActivePods.isAvailable(p, min, now)) {
        Duration d = Duration.between(now, since.plusSeconds(min)).plusSeconds(1);
        if (d.isNegative()) {
          d = Duration.ofSeconds(1);
        }
        if (best == null || d.compareTo(best) < 0) {
          best = d;
        }
      }
    }
    return best;
  }
}
