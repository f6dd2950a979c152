package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.apps.ReplicaSetStatus;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.Service;
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

  /**
   * @param hash the hash of the rollout's template; when an owned ReplicaSet with another hash label is adopted as the
   *     new one ({@link #findNew}), its label becomes this sync's {@link #hash}
   */
  RolloutSync(ObjectStore store, Rollout r, Instant now, String hash, List<ReplicaSet> owned) {
    this.store = store;
    this.r = r;
    this.ns = r.metadata().namespace();
    this.now = now;
    this.b = r.status().toBuilder();
    ReplicaSet found = findNew(r, hash, owned);
    this.hash = found != null ? hashOf(found) : hash;
    this.newRs = found != null ? found : createNew(owned);
    for (ReplicaSet rs : owned) {
      sets.put(rs.metadata().name(), rs);
    }
    sets.put(newRs.metadata().name(), newRs);
    resolveStable(r.status().stableRs());
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
  private ReplicaSet createNew(List<ReplicaSet> owned) {
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
      return store.create(rs);
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
    ReplicaSet scaled = latest.withSpec(latest.spec().withReplicas(replicas));
    if (replicas == 0 && ScaleDownDelays.hasDeadline(latest) && !ScaleDownDelays.delayOnAbort(this)) {
      // Argo's scaleReplicaSet: a full scale-down drops the deadline (unless an abort's scale-down is delayed)
      Map<String, String> annotations = new HashMap<>(latest.metadata().annotations());
      annotations.remove(ScaleDownDelays.SCALE_DOWN_DEADLINE);
      scaled = scaled.withMetadata(latest.metadata().toBuilder().annotations(annotations).build());
    }
    return replace(store.update(scaled));
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
    sel.put(Rollout.POD_TEMPLATE_HASH_LABEL, podHash);
    store.update(s.withSpec(s.spec().toBuilder().selector(sel).build()));
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
    return now;
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
