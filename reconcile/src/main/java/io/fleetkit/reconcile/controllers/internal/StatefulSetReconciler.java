package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.apps.ControllerRevision;
import io.fleetkit.api.apps.PersistentVolumeClaimRetentionPolicyType;
import io.fleetkit.api.apps.PodManagementPolicy;
import io.fleetkit.api.apps.RollingUpdateStatefulSetStrategy;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.apps.StatefulSetStatus;
import io.fleetkit.api.apps.StatefulSetUpdateStrategyType;
import io.fleetkit.api.core.PersistentVolumeClaim;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.metrics.StatefulSetMetrics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The StatefulSet reconciler, after {@code pkg/controller/statefulset/stateful_set_control.go}
 * ({@code updateStatefulSet}): pods {@code <set>-<start>..<set>-<start+N-1>} ({@code spec.ordinals.start}, 0 by
 * default) with claims created first; pods of other ordinals are condemned; OrderedReady creates in
 * ordinal order waiting for each predecessor to be Running and Ready and deletes from the highest ordinal down,
 * Parallel does all at once; failed or succeeded pods are deleted, and recreated by the next pass; RollingUpdate
 * replaces pods of other revisions from the highest ordinal down to {@code partition}, keeping at most {@code
 * maxUnavailable} replicas (default 1; a percentage of {@code replicas} rounded down, at least 1) unavailable (not
 * Running and Ready for {@code minReadySeconds}, being deleted, or missing), as upstream with {@code
 * MaxUnavailableStatefulSet} (on by default since Kubernetes 1.35); OnDelete only gives recreated pods the new
 * revision.
 *
 * <p>{@code spec.persistentVolumeClaimRetentionPolicy} is kept as owner references on the claims
 * ({@link StatefulSetClaimOwnership}, upstream's {@code UpdatePodClaimForRetentionPolicy}): set when a pod is created
 * or its pending claims are recreated, checked for every replica that passed the ordering gates and for every
 * condemned pod before any is deleted (so a condemned pod owns its claims when it goes, with {@code whenScaled:
 * Delete}); the garbage collector deletes the claims. With {@code whenScaled: Delete} a pod is not created while a
 * claim of its ordinal still belongs to an earlier pod of that name (upstream's {@code PodClaimIsStale}); the set is
 * looked at again after {@link #STALE_CLAIM_RETRY}.
 *
 * <p>Revisions are {@link io.fleetkit.api.apps.ControllerRevision} objects owned by the set
 * ({@link StatefulSetRevisions}, upstream's {@code getStatefulSetRevisions}): the update revision holds the set's
 * template, the current revision the template of {@code status.currentRevision}, which pods below the partition are
 * (re)created from; each pod's {@code controller-revision-hash} label names its revision. Orphan revisions matching
 * the selector are adopted first; after the pass the history is truncated to {@code spec.revisionHistoryLimit}
 * revisions besides the live ones (current, update, and those of existing pods). The reconciler keeps no state but the
 * gauges of {@link StatefulSetMetrics}.
 */
public final class StatefulSetReconciler implements Reconciler<StatefulSet> {
  private static final Logger LOG = LoggerFactory.getLogger(StatefulSetReconciler.class);
  /** How long a set waits before it looks again at a claim still owned by an earlier pod of the same name. */
  public static final Duration STALE_CLAIM_RETRY = Duration.ofSeconds(1);
  /** The Warning event reason for a claim another object controls ({@code ConflictingController} upstream). */
  public static final String CONFLICTING_CONTROLLER = "ConflictingController";

  private final MetricsRegistry metrics;

  /** A reconciler that records nothing. */
  public StatefulSetReconciler() {
    this(MetricsRegistry.NOOP);
  }

  /** A reconciler that sets {@link StatefulSetMetrics}' gauges in {@code metrics}. */
  public StatefulSetReconciler(MetricsRegistry metrics) {
    this.metrics = Objects.requireNonNull(metrics, "metrics");
  }

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
    boolean staleClaim = false;
    if (set.metadata().deletionTimestamp() == null) {
      try {
        Pass pass = new Pass(ctx.store(), ctx.events(), set, revs, view, now);
        pass.run();
        staleClaim = pass.staleClaim;
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
    if (staleClaim && (wait == null || wait.compareTo(STALE_CLAIM_RETRY) > 0)) {
      wait = STALE_CLAIM_RETRY;
    }
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
    /** Set when a pod was not created because a claim of its ordinal still belongs to an earlier pod. */
    boolean staleClaim;

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
      int start = set.spec().startOrdinal();
      // replicas[i] holds ordinal start + i (upstream's getStartOrdinal..getEndOrdinal); others with an ordinal are
      // condemned, a pod whose ordinal does not parse is ignored
      Pod[] replicas = new Pod[n];
      List<Pod> condemned = new ArrayList<>();
      for (Pod p : view.values()) {
        int ord = StatefulSetPods.ordinal(p);
        if (set.spec().inOrdinalRange(ord)) {
          replicas[ord - start] = p;
        } else if (ord >= 0) {
          condemned.add(p);
        }
      }
      condemned.sort(StatefulSetPods.ascendingOrdinal());
      int minReadySeconds = set.spec().minReadySeconds();
      Pod firstUnavailable = null;
      for (Pod p : replicas) {
        if (p != null && firstUnavailable == null && StatefulSetPods.isUnavailable(p, minReadySeconds, now)) {
          firstUnavailable = p;
        }
      }
      for (Pod p : condemned) {
        if (firstUnavailable == null && StatefulSetPods.isUnavailable(p, minReadySeconds, now)) {
          firstUnavailable = p;
        }
      }

      for (int i = 0; i < n; i++) {
        Pod pod = replicas[i];
        if (pod != null && pod.status().phase().isTerminal()) {
          // upstream's processReplica: a failed or succeeded pod is deleted (unless it is being deleted already); its
          // replacement is created by the pass after the deletion, so Monotonic ends this pass and Parallel goes on
          // with the other replicas
          LOG.debug("statefulset {}: pod {} is {}, deleting it to recreate it", ObjectKey.of(set),
              pod.metadata().name(), pod.status().phase());
          if (!StatefulSetPods.isTerminating(pod)) {
            delete(pod);
          }
          if (monotonic) {
            return;
          }
          continue;
        }
        if (pod == null) {
          if (podClaimIsStale(start + i)) {
            staleClaim = true;
            // upstream: no more work this round for this replica; Parallel's batches go on with the others
            if (monotonic) {
              return;
            }
            continue;
          }
          replicas[i] = create(start + i);
          if (monotonic) {
            return;
          }
          continue;
        }
        if (pod.status().phase() == PodPhase.Pending) {
          // upstream's RecreatesPVCForPendingPod: a pending pod waits for its claims; their policy is set as well
          createMissingClaims(start + i);
          updateClaimsForRetentionPolicy(pod);
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
          createMissingClaims(start + i);
          Pod fixed = StatefulSetPods.updateStorage(set, StatefulSetPods.updateIdentity(set, pod));
          try {
            replicas[i] = store.update(fixed);
          } catch (RuntimeException e) {
            podEvent("update", fixed, e); // upstream's UpdateStatefulPod: an attempted update is recorded
            throw e;
          }
          podEvent("update", fixed, null);
          view.put(fixed.metadata().name(), replicas[i]);
        }
        // upstream's ClaimsMatchRetentionPolicy, then UpdateStatefulPod's UpdatePodClaimForRetentionPolicy
        updateClaimsForRetentionPolicy(replicas[i]);
      }

      // upstream: fix the claims of every condemned pod before any is deleted, so a pod scaled away with
      // whenScaled: Delete owns its claims when it goes
      for (Pod pod : condemned) {
        updateClaimsForRetentionPolicy(pod);
      }

      for (int target = condemned.size() - 1; target >= 0; target--) {
        Pod pod = condemned.get(target);
        if (StatefulSetPods.isTerminating(pod)) {
          if (monotonic) {
            return;
          }
          continue;
        }
        if (!StatefulSetPods.isRunningAndAvailable(pod, minReadySeconds, now) && monotonic
            && pod != firstUnavailable) {
          return; // upstream: wait for the unavailable predecessor, unless this is it
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
      int maxUnavailable = StatefulSetPods.maxUnavailable(ru, n);
      if (metrics.enabled()) {
        String[] labels = {set.metadata().namespace(), set.metadata().name(),
            set.spec().podManagementPolicy().name()};
        metrics.gauge(StatefulSetMetrics.MAX_UNAVAILABLE, labels).set(maxUnavailable);
        metrics.gauge(StatefulSetMetrics.UNAVAILABLE_REPLICAS, labels)
            .set(StatefulSetPods.unavailableReplicas(replicas, minReadySeconds, now));
      }
      for (Pod pod : StatefulSetPods.rollingUpdateDeletions(replicas, ru == null ? 0 : ru.partition(),
          maxUnavailable, updateRevision, minReadySeconds, now)) {
        LOG.debug("statefulset {}: deleting pod {} of revision {} for update to {}", ObjectKey.of(set),
            pod.metadata().name(), StatefulSetPods.revision(pod), updateRevision);
        delete(pod);
      }
    }

    /**
     * Upstream's {@code newVersionedStatefulSetPod}: below the partition (counted from the start ordinal) the current
     * revision, else the update.
     */
    private Pod create(int ordinal) {
      RollingUpdateStatefulSetStrategy ru = set.spec().updateStrategy().rollingUpdate();
      boolean current = set.spec().updateStrategy().type() == StatefulSetUpdateStrategyType.RollingUpdate
          && ru != null && ordinal - set.spec().startOrdinal() < ru.partition(); // ordinal >= start here
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
        // a refused create (a quota, a missing namespace) is a Warning event
        podEvent("create", pod, e);
        throw e;
      }
      podEvent("create", pod, null);
      view.put(created.metadata().name(), created);
      updateClaimsForRetentionPolicy(created); // upstream's CreateStatefulPod: set the policy as far as possible
      return created;
    }

    /**
     * Upstream's {@code PodClaimIsStale}: with {@code whenScaled: Delete}, a claim of this ordinal that references an
     * earlier pod of the name (another uid) is about to be collected and must not be reused.
     */
    private boolean podClaimIsStale(int ordinal) {
      if (StatefulSetClaimOwnership.policy(set).whenScaled() == PersistentVolumeClaimRetentionPolicyType.Retain) {
        return false;
      }
      Pod toBe = StatefulSetPods.newPod(set, updateTemplate, updateRevision, ordinal); // no uid yet
      for (PersistentVolumeClaim want : StatefulSetPods.claims(set, ordinal)) {
        PersistentVolumeClaim claim = store.get(PersistentVolumeClaim.class, want.metadata().namespace(),
            want.metadata().name()).orElse(null);
        if (claim != null && StatefulSetClaimOwnership.hasStaleOwnerRef(claim.metadata().ownerReferences(), toBe)) {
          LOG.debug("statefulset {}: claim {} still belongs to an earlier pod {}, waiting", ObjectKey.of(set),
              claim.metadata().name(), toBe.metadata().name());
          return true;
        }
      }
      return false;
    }

    /**
     * Upstream's {@code UpdatePodClaimForRetentionPolicy} (after {@code ClaimsMatchRetentionPolicy}): the owner
     * references of the pod's existing claims made what the set's retention policy asks; a missing claim is left to a
     * later pass. A claim another object controls gets a Warning event and loses its references to the set and pod.
     */
    private void updateClaimsForRetentionPolicy(Pod pod) {
      int ordinal = StatefulSetPods.ordinal(pod);
      if (ordinal < 0) {
        return;
      }
      for (PersistentVolumeClaim want : StatefulSetPods.claims(set, ordinal)) {
        PersistentVolumeClaim claim = store.get(PersistentVolumeClaim.class, want.metadata().namespace(),
            want.metadata().name()).orElse(null);
        if (claim == null) {
          continue; // upstream: expected claim missing, picked up in a later pass
        }
        List<OwnerReference> refs = claim.metadata().ownerReferences();
        if (StatefulSetClaimOwnership.isClaimOwnerUpToDate(refs, set, pod)) {
          continue;
        }
        if (StatefulSetClaimOwnership.hasUnexpectedController(refs, set, pod)) {
          events.event(set, Event.WARNING, CONFLICTING_CONTROLLER, "Update", "PersistentVolumeClaim "
              + claim.metadata().name() + " has a conflicting OwnerReference that acts as a managing controller, the"
              + " retention policy is ignored for this claim");
        }
        List<OwnerReference> updated = StatefulSetClaimOwnership.updateClaimOwnerRefForSetAndPod(refs, set, pod);
        LOG.debug("statefulset {}: claim {} owner references {} -> {}", ObjectKey.of(set), claim.metadata().name(),
            refs, updated);
        store.update(claim.withMetadata(claim.metadata().toBuilder().ownerReferences(updated).build()));
      }
    }

    /** Creates the claims of {@code ordinal} that do not exist (upstream's {@code createPersistentVolumeClaims}). */
    private void createMissingClaims(int ordinal) {
      for (PersistentVolumeClaim claim : StatefulSetPods.claims(set, ordinal)) {
        String ns = claim.metadata().namespace();
        if (store.get(PersistentVolumeClaim.class, ns, claim.metadata().name()).isEmpty()) {
          String pod = set.metadata().name() + "-" + ordinal;
          try {
            store.create(claim);
          } catch (ConflictException e) {
            // created meanwhile: a claim is never rebound to another ordinal, so the existing one is ours
            continue; // upstream records no event for AlreadyExists
          } catch (RuntimeException e) {
            // upstream's recordClaimEvent
            events.event(set, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "create Claim "
                + claim.metadata().name() + " for Pod " + pod + " in StatefulSet " + set.metadata().name()
                + " failed error: " + e.getMessage());
            throw e;
          }
          events.event(set, Event.NORMAL, EventRecorder.SUCCESSFUL_CREATE, "Create", "create Claim "
              + claim.metadata().name() + " Pod " + pod + " in StatefulSet " + set.metadata().name() + " success");
        }
      }
    }

    /**
     * Upstream's {@code recordPodEvent}: {@code Successful<Verb>} (Normal) or {@code Failed<Verb>} (Warning) on the
     * set, for {@code verb} create, update or delete.
     */
    private void podEvent(String verb, Pod pod, @Nullable RuntimeException error) {
      String title = Character.toUpperCase(verb.charAt(0)) + verb.substring(1);
      String what = verb + " Pod " + pod.metadata().name() + " in StatefulSet " + set.metadata().name();
      if (error == null) {
        events.event(set, Event.NORMAL, "Successful" + title, title, what + " successful");
      } else {
        events.event(set, Event.WARNING, "Failed" + title, title, what + " failed error: " + error.getMessage());
      }
    }

    private void delete(Pod pod) {
      try {
        store.delete(Pod.class, pod.metadata().namespace(), pod.metadata().name(),
            DeletePreconditions.uid(pod.metadata().uid()));
        podEvent("delete", pod, null);
      } catch (NotFoundException e) {
        podEvent("delete", pod, e); // upstream records the error, then goes on: the pod is gone
      } catch (RuntimeException e) {
        podEvent("delete", pod, e);
        throw e;
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
