package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetCondition;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.ActivePods.RankedPod;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ReplicaSet reconciler, after {@code pkg/controller/replicaset/replica_set.go}: claim pods (adopt matching
 * orphans, release owned pods that no longer match), create or delete the difference when expectations are
 * satisfied (at most {@code burstReplicas} per sync, creations in slow-start batches 1, 2, 4, ...), delete the
 * best victims by {@link ActivePods#withRanks}, and write the status.
 */
public final class ReplicaSetReconciler implements Reconciler<ReplicaSet> {
  private static final Logger LOG = LoggerFactory.getLogger(ReplicaSetReconciler.class);
  /** Upstream's {@code BurstReplicas}. */
  public static final int DEFAULT_BURST_REPLICAS = 500;
  /** Upstream's {@code SlowStartInitialBatchSize}. */
  static final int SLOW_START_INITIAL_BATCH_SIZE = 1;
  private static final int NAME_ATTEMPTS = 8;

  private final ControllerExpectations expectations;
  private final CacheExpectations cacheExpectations = new CacheExpectations();
  private final ReplicaSetPodCounts podCounts = new ReplicaSetPodCounts();
  private final int burstReplicas;
  private final Supplier<String> nameSuffixes;

  /**
   * @param nameSuffixes the random part of generated pod names (5 characters, as {@code generateName})
   */
  public ReplicaSetReconciler(ControllerExpectations expectations, int burstReplicas, Supplier<String> nameSuffixes) {
    this.expectations = expectations;
    this.burstReplicas = burstReplicas;
    this.nameSuffixes = nameSuffixes;
  }

  @Override
  public Result reconcile(ReconcileContext<ReplicaSet> ctx) {
    ObjectKey key = ctx.key();
    ReplicaSet rs = ctx.object().orElse(null);
    if (rs == null) {
      expectations.delete(key);
      cacheExpectations.forget(key);
      podCounts.forget(key);
      return Result.done();
    }
    Instant now = ctx.now();
    boolean satisfied = expectations.satisfied(key, now);
    ControllerRefManager.Claim<Pod> claim = ControllerRefManager.forSync(ctx.store(), rs, rs.spec().selector())
        .claim(ctx.lister(Pod.class));
    if (claim.failed()) {
      // upstream's sync returns the claim's aggregate error: nothing else is done, the key is retried with backoff
      LOG.debug("replicaset {}: claiming pods failed, requeueing: {}", key, claim.errors());
      return Result.requeue();
    }
    List<Pod> owned = claim.claimed();
    if (satisfied && cacheExpectations.waiting(key)) {
      // the counts above are kept by a handler that runs after the cache changes, not with it: a worker reading
      // the cache in between sees the two disagree
      satisfied = cacheExpectations.satisfiedInOrder(key, owned,
          name -> ctx.store().get(Pod.class, key.namespace(), name).isPresent(), now);
    }
    ReplicaSetPodCounts.Counts counts = podCounts.count(key, owned, rs.spec().template().labels(),
        rs.spec().minReadySeconds(), now);
    List<Pod> active = counts.active();
    RuntimeException failure = null;
    if (satisfied && rs.metadata().deletionTimestamp() == null) {
      try {
        manageReplicas(ctx, rs, active, now);
      } catch (RuntimeException e) {
        failure = e;
      }
    }
    ReplicaSetStatus status = statusOf(rs, active.size(), counts.fullyLabeled(), counts.ready(), counts.available(),
        now, failure);
    if (!status.equals(rs.status())) {
      try {
        ctx.store().updateStatus(rs.withStatus(status));
      } catch (ConflictException | NotFoundException e) {
        LOG.debug("replicaset {}: status update lost a race ({}), requeueing", key, e.getMessage());
        return Result.requeue();
      }
    }
    if (failure != null) {
      throw failure;
    }
    Duration wait = nextAvailability(rs, active, now);
    return wait == null ? Result.done() : Result.requeueAfter(wait);
  }

  /** Whether {@code labels} holds every pair of {@code wanted} (label values are never null). */
  static boolean hasAll(Map<String, String> labels, Map<String, String> wanted) {
    for (Map.Entry<String, String> e : wanted.entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  /** The pods controlled by any of {@code uids} in {@code namespace}, through the controller index. */
  static List<Pod> controlledBy(Lister<Pod> pods, String namespace, Set<String> uids) {
    List<Pod> out = new ArrayList<>();
    for (String uid : uids) {
      for (Pod p : pods.byIndex(Lister.CONTROLLER_INDEX, uid)) {
        if (p.metadata().namespace().equals(namespace)) {
          out.add(p);
        }
      }
    }
    return out;
  }

  private void manageReplicas(ReconcileContext<ReplicaSet> ctx, ReplicaSet rs, List<Pod> active, Instant now) {
    ObjectKey key = ctx.key();
    int diff = active.size() - rs.spec().replicas();
    if (diff < 0) {
      int n = Math.min(-diff, burstReplicas);
      expectations.expectCreations(key, n, now);
      SlowStartBatch.Outcome outcome = SlowStartBatch.run(n, SLOW_START_INITIAL_BATCH_SIZE,
          () -> createPod(ctx, rs));
      int created = outcome.successes();
      RuntimeException error = outcome.error();
      for (int skipped = n - created; skipped > 0; skipped--) {
        expectations.creationObserved(key); // these will never be observed
      }
      if (error != null) {
        throw error;
      }
    } else if (diff > 0) {
      int n = Math.min(diff, burstReplicas);
      List<Pod> victims = podsToDelete(active, relatedPods(ctx, rs), n, now);
      Set<String> keys = new HashSet<>();
      for (Pod v : victims) {
        keys.add(v.metadata().key());
      }
      expectations.expectDeletions(key, keys, now);
      for (Pod v : victims) {
        try {
          ctx.store().delete(Pod.class, v.metadata().namespace(), v.metadata().name(),
              DeletePreconditions.uid(v.metadata().uid()));
          cacheExpectations.deleted(key, v.metadata().name(), now);
          ctx.events().event(rs, Event.NORMAL, EventRecorder.SUCCESSFUL_DELETE, "Delete", "Deleted pod: "
              + v.metadata().name());
        } catch (NotFoundException | ConflictException e) {
          expectations.deletionObserved(key, v.metadata().key());
        } catch (RuntimeException e) {
          // upstream controller_utils DeletePod: FailedDelete "Error deleting: %v"
          expectations.deletionObserved(key, v.metadata().key());
          ctx.events().event(rs, Event.WARNING, EventRecorder.FAILED_DELETE, "Delete", "Error deleting: "
              + e.getMessage());
          throw e;
        }
      }
    }
  }

  private void createPod(ReconcileContext<ReplicaSet> ctx, ReplicaSet rs) {
    ObjectMeta tm = rs.spec().template().metadata();
    String base = rs.metadata().name();
    if (base.length() > 57) {
      base = base.substring(0, 57); // upstream's generateName truncation keeps names within 63 characters
    }
    ConflictException last = null;
    for (int attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
      ObjectMeta.Builder mb = ObjectMeta.builder()
          .namespace(rs.metadata().namespace())
          .name(base + "-" + nameSuffixes.get())
          .labels(tm.labels())
          .annotations(tm.annotations())
          .finalizers(tm.finalizers())
          .ownerReference(OwnerReference.controllerOf(rs));
      ObjectMeta meta = TraceParent.inherit(rs.metadata(), mb).build();
      try {
        ctx.store().create(new Pod(meta, rs.spec().template().spec(), PodStatus.PENDING));
        cacheExpectations.created(ctx.key(), meta.name(), ctx.now());
        ctx.events().event(rs, Event.NORMAL, EventRecorder.SUCCESSFUL_CREATE, "Create", "Created pod: " + meta.name());
        return;
      } catch (ConflictException e) {
        last = e; // name taken: draw another suffix, as the API server does for generateName
      } catch (RuntimeException e) {
        ctx.events().event(rs, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating: "
            + e.getMessage());
        throw e;
      }
    }
    ctx.events().event(rs, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating: "
        + last.getMessage());
    throw last;
  }

  /** Pods of every ReplicaSet with the same controller as {@code rs} (its Deployment's), for co-location ranks. */
  private static List<Pod> relatedPods(ReconcileContext<ReplicaSet> ctx, ReplicaSet rs) {
    Set<String> uids = new HashSet<>();
    uids.add(rs.metadata().uid());
    OwnerReference ref = rs.metadata().controllerRef();
    if (ref != null) {
      for (ReplicaSet other : ctx.lister().list(rs.metadata().namespace())) {
        OwnerReference o = other.metadata().controllerRef();
        if (o != null && o.uid().equals(ref.uid())) {
          uids.add(other.metadata().uid());
        }
      }
    }
    return controlledBy(ctx.lister(Pod.class), rs.metadata().namespace(), uids);
  }

  /**
   * Upstream's {@code getPodsToDelete}: when fewer than all pods go, rank each by the number of active related
   * pods on its node and take the first {@code diff} by {@link ActivePods#withRanks}.
   */
  public static List<Pod> podsToDelete(List<Pod> filtered, List<Pod> related, int diff, Instant now) {
    if (diff >= filtered.size()) {
      return List.copyOf(filtered);
    }
    Map<String, Integer> onNode = new HashMap<>();
    for (Pod p : related) {
      if (ActivePods.isActive(p)) {
        onNode.merge(p.spec().nodeName(), 1, Integer::sum);
      }
    }
    List<RankedPod> ranked = new ArrayList<>();
    for (Pod p : filtered) {
      ranked.add(new RankedPod(p, onNode.getOrDefault(p.spec().nodeName(), 0)));
    }
    ranked.sort(ActivePods.withRanks(now));
    List<Pod> out = new ArrayList<>(diff);
    for (int i = 0; i < diff; i++) {
      out.add(ranked.get(i).pod());
    }
    return out;
  }

  /**
   * Upstream's {@code calculateStatus}: the counts, and the ReplicaFailure condition, set (reason FailedCreate or
   * FailedDelete, the error as message) when managing the replicas failed and it is not set yet, removed when
   * they were managed without error.
   */
  static ReplicaSetStatus calculateStatus(ReplicaSet rs, List<Pod> active, Instant now,
      @Nullable RuntimeException manageError) {
    int fullyLabeled = 0;
    int ready = 0;
    int available = 0;
    Map<String, String> templateLabels = rs.spec().template().labels();
    for (Pod p : active) {
      if (hasAll(p.metadata().labels(), templateLabels)) {
        fullyLabeled++;
      }
      if (p.isReady()) {
        ready++;
        if (ActivePods.isAvailable(p, rs.spec().minReadySeconds(), now)) {
          available++;
        }
      }
    }
    return statusOf(rs, active.size(), fullyLabeled, ready, available, now, manageError);
  }

  /** {@link #calculateStatus} from the counts of the active pods. */
  private static ReplicaSetStatus statusOf(ReplicaSet rs, int activeCount, int fullyLabeled, int ready,
      int available, Instant now, @Nullable RuntimeException manageError) {
    List<ReplicaSetCondition> conditions = new ArrayList<>(rs.status().conditions());
    ReplicaSetCondition failure = rs.status().condition(ReplicaSetCondition.REPLICA_FAILURE);
    if (manageError != null && failure == null) {
      int diff = activeCount - rs.spec().replicas();
      String reason = diff < 0 ? ReplicaSetCondition.REASON_FAILED_CREATE
          : diff > 0 ? ReplicaSetCondition.REASON_FAILED_DELETE : "";
      conditions.add(new ReplicaSetCondition(ReplicaSetCondition.REPLICA_FAILURE, ConditionStatus.True, reason,
          String.valueOf(manageError.getMessage()), now));
    } else if (manageError == null && failure != null) {
      conditions.remove(failure);
    }
    return new ReplicaSetStatus(activeCount, fullyLabeled, ready, available, rs.metadata().generation(),
        conditions);
  }

  /** When the next ready pod becomes available (minReadySeconds), or {@code null}. */
  private static @Nullable Duration nextAvailability(ReplicaSet rs, List<Pod> active, Instant now) {
    int min = rs.spec().minReadySeconds();
    if (min == 0) {
      return null;
    }
    Duration best = null;
    for (Pod p : active) {
      Instant since = ActivePods.readyTime(p);
      if (since != null && !ActivePods.isAvailable(p, min, now)) {
        // available strictly after since + min: wake one second later, as upstream's AddAfter(minReadySeconds)
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
