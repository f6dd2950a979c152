package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.rollouts.PauseCondition;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The state of one sync of one Rollout: its ReplicaSets (new, stable, others), the status being built, and the
 * writes (scale a ReplicaSet, point a Service at a version, abort). Not thread-safe: one per reconcile call.
 */
final class RolloutSync {
  /**
   * Newest first: Argo's reverse {@code ReplicaSetsByRevisionNumber}, whose tie-breaker, the creation time, is the
   * order here (FleetKit does not number a rollout's revisions).
   */
  static final java.util.Comparator<ReplicaSet> NEWEST_FIRST =
      (a, c) -> io.fleetkit.reconcile.controllers.internal.DeploymentMath.BY_CREATION.compare(view(c), view(a));

  final ObjectStore store;
  final Rollout r;
  final String ns;
  final Instant now;
  final String hash;
  ReplicaSet newRs;
  @Nullable ReplicaSet stableRs;
  final List<ReplicaSet> others = new ArrayList<>();
  /** Every owned ReplicaSet by name, kept current by {@link #scale}. */
  final Map<String, ReplicaSet> sets = new LinkedHashMap<>();
  final RolloutStatus.Builder b;
  @Nullable Instant wakeAt;
  /** Set by an abort during this sync: the runs to terminate and the reason. */
  @Nullable String abortReason;
  /** Why the traffic router could not apply the weight in this sync; {@code null} when it could (or none ran). */
  @Nullable String routingError;
  /** Where the events go; {@link EventRecorder#NOOP} builds none ({@link #recording()}). */
  private final EventRecorder events;
  /** The events of this sync in order, held until {@link #flushEvents} (see {@link RolloutEvents}). */
  private final List<RolloutEvents.Pending> pending = new ArrayList<>();
  /** The phases of the rollout's analysis runs last seen, for their events; {@code null} records none. */
  @Nullable AnalysisRunEvents runEvents;
  /** The pause state {@link #pauseEvents} last saw: at first the written status's. */
  private RolloutStatus pauseSeen;

  /**
   * @param hash the hash of the rollout's template; when an owned ReplicaSet with another hash label is adopted as the
   *     new one ({@link #findNew}), its label becomes this sync's {@link #hash}
   */
  RolloutSync(ObjectStore store, Rollout r, Instant now, String hash, List<ReplicaSet> owned) {
    this(store, r, now, hash, owned, EventRecorder.NOOP);
  }

  /**
   * @param events where the sync's events go: those of the writes it makes (a ReplicaSet created or scaled, a Service
   *     switched) and, once {@link #flushEvents flushed} after the status write, those of the status it wrote
   */
  RolloutSync(ObjectStore store, Rollout r, Instant now, String hash, List<ReplicaSet> owned, EventRecorder events) {
    this.events = events;
    this.store = store;
    this.r = r;
    this.ns = r.metadata().namespace();
    this.now = now;
    this.b = r.status().toBuilder();
    this.pauseSeen = r.status();
    ReplicaSet found = findNew(r, hash, owned);
    this.hash = found != null ? hashOf(found) : hash;
    boolean[] created = {false};
    this.newRs = found != null ? found : createNew(owned, created);
    for (ReplicaSet rs : owned) {
      sets.put(rs.metadata().name(), rs);
    }
    sets.put(newRs.metadata().name(), newRs);
    resolveStable(r.status().stableRs());
    if (recording() && !this.hash.equals(r.status().currentPodHash())) {
      // setRolloutRevision, then createDesiredReplicaSet; FleetKit's "revision write" is status.currentPodHash
      onStatusWrite(Event.NORMAL, RolloutEvents.ROLLOUT_UPDATED, "Update",
          RolloutEvents.rolloutUpdated(revision(newRs)));
    }
    if (recording() && created[0]) {
      now(Event.NORMAL, RolloutEvents.NEW_REPLICA_SET, "Create",
          RolloutEvents.newReplicaSet(newRs.metadata().name(), revision(newRs)));
    }
  }

  /**
   * Argo Rollouts' {@code FindNewReplicaSet} ({@code utils/replicaset/replicaset.go}): among the owned ReplicaSets,
   * oldest first, the one labelled with {@code hash}; else, when {@code status.currentPodHash} names another
   * ReplicaSet whose template equals the rollout's ignoring the hash label, that one; else the oldest whose template
   * equals the rollout's. The last two adopt a ReplicaSet whose label was computed by another hashing (an earlier
   * FleetKit whose pod spec had fewer fields, or another controller) instead of starting an unwarranted rollout.
   * {@code null} when none matches.
   */
  static @Nullable ReplicaSet findNew(Rollout r, String hash, List<ReplicaSet> owned) {
    List<ReplicaSet> sorted = new ArrayList<>(owned);
    sorted.sort((a, b) -> io.fleetkit.reconcile.controllers.internal.DeploymentMath.BY_CREATION.compare(view(a),
        view(b)));
    for (ReplicaSet rs : sorted) {
      if (hash.equals(hashOf(rs))) {
        return rs;
      }
    }
    String current = r.status().currentPodHash();
    if (!current.isEmpty() && !current.equals(hash)) {
      for (ReplicaSet rs : sorted) {
        if (current.equals(hashOf(rs))) {
          if (templateMatches(r, rs)) {
            return rs;
          }
          break; // upstream looks at the first ReplicaSet with that label only
        }
      }
    }
    for (ReplicaSet rs : sorted) {
      if (templateMatches(r, rs)) {
        return rs;
      }
    }
    return null;
  }

  /**
   * Argo's {@code ReplicaSetTemplateMatchesRollout}: the templates equal ignoring the hash label and the injected
   * ephemeral metadata.
   */
  private static boolean templateMatches(Rollout r, ReplicaSet rs) {
    return io.fleetkit.reconcile.controllers.internal.TemplateHash.equalIgnoreHash(
        EphemeralMetadata.withoutInjected(rs),
        r.spec().template(), Rollout.POD_TEMPLATE_HASH_LABEL);
  }

  static String hashOf(ReplicaSet rs) {
    return rs.metadata().labels().getOrDefault(Rollout.POD_TEMPLATE_HASH_LABEL, "");
  }

  /** Splits off the stable ReplicaSet ({@code status.stableRs}) from the others; it may be the new one. */
  void resolveStable(String stableHash) {
    stableRs = null;
    others.clear();
    for (ReplicaSet rs : sets.values()) {
      if (!stableHash.isEmpty() && stableHash.equals(hashOf(rs))) {
        stableRs = rs;
      } else if (rs != newRs && !rs.metadata().name().equals(newRs.metadata().name())) {
        others.add(rs);
      }
    }
  }

  /**
   * Creates the ReplicaSet of the template (0 replicas), its pod template carrying the ephemeral metadata of its
   * role: canary (preview) when a stable ReplicaSet exists, else stable (active).
   */
  private ReplicaSet createNew(List<ReplicaSet> owned, boolean[] created) {
    PodTemplateSpec t = r.spec().template();
    Map<String, String> labels = new HashMap<>(t.metadata().labels());
    labels.put(Rollout.POD_TEMPLATE_HASH_LABEL, hash);
    PodTemplateSpec tpl = new PodTemplateSpec(t.metadata().toBuilder().labels(labels).build(), t.spec());
    Map<String, String> match = new HashMap<>(r.spec().selector().matchLabels());
    match.put(Rollout.POD_TEMPLATE_HASH_LABEL, hash);
    LabelSelector sel = new LabelSelector(match, r.spec().selector().matchExpressions());
    String name = r.metadata().name() + "-" + hash;
    ReplicaSet rs = new ReplicaSet(io.fleetkit.reconcile.controllers.internal.TraceParent.inherit(r.metadata(),
        ObjectMeta.builder().namespace(ns).name(name).labels(labels).ownerReference(OwnerReference.controllerOf(r)))
        .build(),
        new ReplicaSetSpec(0, sel, tpl, r.spec().minReadySeconds()), ReplicaSetStatus.EMPTY);
    rs = EphemeralMetadata.syncReplicaSet(rs, EphemeralMetadata.forNewReplicaSet(r, owned));
    try {
      ReplicaSet made = store.create(rs);
      created[0] = true;
      return made;
    } catch (io.fleetkit.api.ConflictException e) {
      return store.require(ReplicaSet.class, ns, name);
    }
  }

  static RsView view(@Nullable ReplicaSet rs) {
    return rs == null ? null : new RsView(rs.metadata().name(), rs.spec().replicas(), rs.status().availableReplicas(),
        rs.metadata().creationTimestamp());
  }

  /**
   * Sets the replicas of {@code rs} (no write when unchanged); scaling to 0 also removes its scale-down deadline, as
   * Argo's {@code scaleReplicaSet} does. Returns the updated object.
   */
  ReplicaSet scale(ReplicaSet rs, int replicas) {
    if (rs.spec().replicas() == replicas) {
      return rs;
    }
    ReplicaSet latest = store.require(ReplicaSet.class, ns, rs.metadata().name());
    int from = latest.spec().replicas();
    ReplicaSet scaled = latest.withSpec(latest.spec().withReplicas(replicas));
    if (replicas == 0 && ScaleDownDelays.hasDeadline(latest) && !ScaleDownDelays.delayOnAbort(this)) {
      // Argo's scaleReplicaSet: a full scale-down drops the deadline (unless an abort's scale-down is delayed)
      Map<String, String> annotations = new HashMap<>(latest.metadata().annotations());
      annotations.remove(ScaleDownDelays.SCALE_DOWN_DEADLINE);
      scaled = scaled.withMetadata(latest.metadata().toBuilder().annotations(annotations).build());
    }
    ReplicaSet updated = replace(store.update(scaled));
    if (recording() && from != replicas) {
      now(Event.NORMAL, RolloutEvents.SCALING_REPLICA_SET, "Scale",
          RolloutEvents.scaled(updated.metadata().name(), revision(updated), from, replicas));
    }
    return updated;
  }

  /** Puts a ReplicaSet just written in place of its old copy (new, stable, others, sets); returns it. */
  ReplicaSet replace(ReplicaSet updated) {
    String name = updated.metadata().name();
    sets.put(name, updated);
    if (newRs.metadata().name().equals(name)) {
      newRs = updated;
    }
    if (stableRs != null && stableRs.metadata().name().equals(name)) {
      stableRs = updated;
    }
    for (int i = 0; i < others.size(); i++) {
      if (others.get(i).metadata().name().equals(name)) {
        others.set(i, updated);
      }
    }
    return updated;
  }

  /** Points Service {@code name} at the version {@code podHash} (its selector gets the hash label). */
  void selectVersion(@Nullable String service, String podHash) {
    if (service == null || podHash.isEmpty()) {
      return;
    }
    Service s = store.get(Service.class, ns, service).orElse(null);
    if (s == null || podHash.equals(s.spec().selector().get(Rollout.POD_TEMPLATE_HASH_LABEL))) {
      return;
    }
    Map<String, String> sel = new HashMap<>(s.spec().selector());
    String from = sel.put(Rollout.POD_TEMPLATE_HASH_LABEL, podHash);
    store.update(s.withSpec(s.spec().toBuilder().selector(sel).build()));
    if (recording()) {
      now(Event.NORMAL, RolloutEvents.SWITCH_SERVICE, "Update",
          RolloutEvents.switchedService(service, from == null ? "" : from, podHash));
    }
  }

  /** Aborts the update: steps back to 0, reason recorded (Degraded, RolloutAborted), analysis stopped. */
  void abort(String reason) {
    if (abortReason != null || r.status().abort()) {
      return;
    }
    abortReason = reason;
    b.abort(true).abortedAt(now).message("RolloutAborted: " + reason).pauseConditions(List.of())
        .controllerPause(false);
    if (r.canary() != null) {
      b.currentStepIndex(0);
    }
    terminateRuns();
  }

  void terminateRuns() {
    RolloutStatus s = b.build();
    AnalysisRuns.terminate(store, ns, s.analysisRun());
    AnalysisRuns.terminate(store, ns, s.backgroundAnalysisRun());
    b.analysisRun("").backgroundAnalysisRun("");
  }

  void wakeAt(Instant t) {
    if (wakeAt == null || t.isBefore(wakeAt)) {
      wakeAt = t;
    }
  }

  /** Adds the controller pause {@code reason} (if absent); returns its start. */
  Instant pause(String reason) {
    RolloutStatus s = b.build();
    PauseCondition c = s.pauseCondition(reason);
    if (c != null) {
      return c.startTime();
    }
    b.addPauseCondition(new PauseCondition(reason, now)).controllerPause(true);
    pauseEvents();
    return now;
  }

  /**
   * Argo's {@code sendStateChangeEvents} ({@link RolloutEvents#stateChange}) between the pause state last seen and the
   * one being built: called where a pause starts, after a step completes and before the status is written, so that
   * a sync that ends one pause and starts the next (Argo takes two syncs) records both, in Argo's order.
   */
  void pauseEvents() {
    if (!recording()) {
      return;
    }
    RolloutStatus st = b.build();
    String change = RolloutEvents.stateChange(pauseSeen, st);
    pauseSeen = st;
    if (change != null) {
      onStatusWrite(io.fleetkit.api.events.Event.NORMAL, change, change.equals(RolloutEvents.PAUSED) ? "Pause"
          : "Resume", RolloutEvents.pauseNote(change, st.pauseConditions().isEmpty() ? ""
          : st.pauseConditions().get(0).reason()));
    }
  }

  /**
   * {@code run} is the rollout's current analysis run of {@code type} ({@link AnalysisRunEvents}): records Argo's
   * {@code AnalysisRun<Phase>} event when its phase changed since last seen.
   */
  void analysisRunSeen(String type, io.fleetkit.api.rollouts.AnalysisRun run) {
    if (recording() && runEvents != null) {
      runEvents.observe(this, type, run);
    }
  }

  /** The rollout's status no longer records a run of {@code type}. */
  void analysisRunCleared(String type) {
    if (runEvents != null) {
      runEvents.forget(r.metadata().key(), type);
    }
  }

  /** Whether events are recorded: false for {@link EventRecorder#NOOP}, and then no message is built. */
  boolean recording() {
    return events != EventRecorder.NOOP;
  }

  /** An event about a write this sync made (a ReplicaSet, a Service): recorded whatever becomes of the status. */
  void now(String type, String reason, String action, String note) {
    pending.add(new RolloutEvents.Pending(false, type, reason, action, note));
  }

  /** An event about a change of the status: recorded only if the status this sync builds is written. */
  void onStatusWrite(String type, String reason, String action, String note) {
    pending.add(new RolloutEvents.Pending(true, type, reason, action, note));
  }

  /**
   * Records the events of this sync in order, those of the status only when {@code statusWritten}; a sync whose
   * status write failed is retried, and records the status's events then.
   */
  void flushEvents(boolean statusWritten) {
    for (RolloutEvents.Pending e : pending) {
      if (statusWritten || !e.onStatusWrite()) {
        events.event(r, e.type(), e.reason(), e.action(), e.note());
      }
    }
    pending.clear();
  }

  /**
   * The revision of {@code rs} in event messages: its place among the rollout's ReplicaSets by creation, oldest 1,
   * the new ReplicaSet last among those created at the same time. Argo numbers revisions in an annotation, and a
   * rollback to an older template renumbers its ReplicaSet to the highest; FleetKit keeps no number, so such a
   * ReplicaSet keeps its place.
   */
  int revision(ReplicaSet rs) {
    int older = 0;
    for (ReplicaSet o : sets.values()) {
      if (!o.metadata().name().equals(rs.metadata().name()) && createdBefore(o, rs)) {
        older++;
      }
    }
    return older + 1;
  }

  private boolean createdBefore(ReplicaSet a, ReplicaSet b) {
    Instant ta = a.metadata().creationTimestamp();
    Instant tb = b.metadata().creationTimestamp();
    if (ta != null && tb != null && !ta.equals(tb)) {
      return ta.isBefore(tb);
    }
    boolean aNew = a.metadata().name().equals(newRs.metadata().name());
    boolean bNew = b.metadata().name().equals(newRs.metadata().name());
    if (aNew != bNew) {
      return bNew;
    }
    return io.fleetkit.reconcile.controllers.internal.DeploymentMath.BY_CREATION.compare(view(a), view(b)) < 0;
  }

  /** Removes every pause condition (a pause ended). */
  void unpause() {
    b.pauseConditions(List.of()).controllerPause(false);
  }

  /**
   * Whether a user promoted while the controller was paused: {@code controllerPause} still set, the pause
   * conditions cleared (what {@code promote} does).
   */
  boolean promotedByUser() {
    RolloutStatus s = r.status();
    return s.controllerPause() && s.pauseConditions().isEmpty();
  }
}
