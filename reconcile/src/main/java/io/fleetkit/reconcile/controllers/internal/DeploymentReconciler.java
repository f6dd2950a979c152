package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.DeploymentCondition;
import io.fleetkit.api.apps.DeploymentSpec;
import io.fleetkit.api.apps.DeploymentStatus;
import io.fleetkit.api.apps.DeploymentStrategyType;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.ReplicaSetSpec;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.ScaleDown;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Deployment reconciler, after {@code pkg/controller/deployment/}: claim ReplicaSets, find or create the new
 * one (named {@code NAME-HASH} with the {@code pod-template-hash} label), keep revisions, roll out with
 * RollingUpdate or Recreate, clean up history beyond {@code revisionHistoryLimit}, and write the status with the
 * Available and Progressing conditions (Progressing=False, ProgressDeadlineExceeded past the deadline).
 *
 * <p>One deliberate difference: the surge is counted per ReplicaSet as {@code max(spec.replicas, active pods)}
 * and availability per ReplicaSet is capped at its spec.replicas, so that a sync that runs before the ReplicaSet
 * controller has acted on the previous one (status not yet caught up) cannot overshoot either bound. Upstream
 * relies on the ReplicaSet controller usually being faster.
 */
public final class DeploymentReconciler implements Reconciler<Deployment> {
  private static final Logger LOG = LoggerFactory.getLogger(DeploymentReconciler.class);

  @Override
  public Result reconcile(ReconcileContext<Deployment> ctx) {
    Deployment d = ctx.object().orElse(null);
    if (d == null || d.metadata().deletionTimestamp() != null) {
      return Result.done();
    }
    if (d.spec().selector().matchLabels().isEmpty() && d.spec().selector().matchExpressions().isEmpty()) {
      LOG.debug("deployment {}: empty selector selects nothing here", d.metadata().key());
      return Result.done();
    }
    // upstream's getReplicaSetsForDeployment: ClaimReplicaSets; a failed adoption or release fails the sync
    ControllerRefManager.Claim<ReplicaSet> claim = ControllerRefManager.forSync(ctx.store(), d, d.spec().selector())
        .claim(ctx.lister(ReplicaSet.class));
    if (claim.failed()) {
      LOG.debug("deployment {}: claiming ReplicaSets failed, requeueing: {}", d.metadata().key(), claim.errors());
      return Result.requeue();
    }
    try {
      return new Sync(ctx, d, claim.claimed()).run();
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("deployment {}: lost a race ({}), requeueing", d.metadata().key(), e.getMessage());
      return Result.requeue();
    }
  }

  /** One sync of one Deployment. */
  private static final class Sync {
    final ReconcileContext<Deployment> ctx;
    Deployment d;
    final Instant now;
    List<ReplicaSet> rsList;
    private final Lister<Pod> pods;

    /** @param rsList the ReplicaSets {@code d} controls after adoption and release (not changed here) */
    Sync(ReconcileContext<Deployment> ctx, Deployment d, List<ReplicaSet> rsList) {
      this.ctx = ctx;
      this.d = d;
      this.now = ctx.now();
      this.rsList = rsList;
      this.pods = ctx.lister(Pod.class);
    }

    /**
     * The pods {@code rs} controls, read when asked through the controller index (the cache's list, the same instance
     * while none of them changed): most syncs ask about few ReplicaSets or none.
     */
    private List<Pod> podsOf(ReplicaSet rs) {
      List<Pod> controlled = pods.byIndex(Lister.CONTROLLER_INDEX, rs.metadata().uid());
      String ns = d.metadata().namespace();
      for (int i = 0; i < controlled.size(); i++) {
        if (!controlled.get(i).metadata().namespace().equals(ns)) {
          List<Pod> out = new ArrayList<>(controlled.size());
          for (Pod p : controlled) {
            if (p.metadata().namespace().equals(ns)) {
              out.add(p);
            }
          }
          return out;
        }
      }
      return controlled;
    }

    Result run() {
      Result paused = checkPausedConditions();
      if (paused != null) {
        return paused;
      }
      if (d.spec().paused()) {
        return syncPaused();
      }
      if (isScalingEvent()) {
        ReplicaSet newRs = newReplicaSet(false);
        proportionalScale(newRs);
        return syncRolloutStatus(newRs == null ? null : current(newRs));
      }
      return d.spec().strategy().type() == DeploymentStrategyType.Recreate ? rolloutRecreate() : rolloutRolling();
    }

    // ---- ReplicaSets -------------------------------------------------------------------------------------------

    private @Nullable ReplicaSet findNew() {
      ReplicaSet best = null;
      for (ReplicaSet rs : rsList) {
        if (TemplateHash.equalIgnoreHash(rs.spec().template(), d.spec().template())
            && (best == null || DeploymentMath.BY_CREATION.compare(view(rs), view(best)) < 0)) {
          best = rs;
        }
      }
      return best;
    }

    private List<ReplicaSet> olds(@Nullable ReplicaSet newRs) {
      List<ReplicaSet> out = new ArrayList<>();
      for (ReplicaSet rs : rsList) {
        if (newRs == null || !rs.metadata().uid().equals(newRs.metadata().uid())) {
          out.add(rs);
        }
      }
      return out;
    }

    static long revision(ReplicaSet rs) {
      String v = rs.metadata().annotations().get(WorkloadLabels.REVISION);
      if (v == null) {
        return 0;
      }
      try {
        return GoIntegers.parseInt(v, 64); // deploymentutil.Revision: strconv.ParseInt(v, 10, 64)
      } catch (NumberFormatException e) {
        return 0;
      }
    }

    /** {@code getNewReplicaSet}: find it (and bump its revision) or, if {@code create}, create it. */
    private @Nullable ReplicaSet newReplicaSet(boolean create) {
      ReplicaSet existing = findNew();
      long maxOld = 0;
      for (ReplicaSet rs : olds(existing)) {
        maxOld = Math.max(maxOld, revision(rs));
      }
      String newRevision = Long.toString(maxOld + 1);
      if (existing != null) {
        if (revision(existing) < maxOld + 1) {
          ObjectMeta m = existing.metadata().toBuilder().annotation(WorkloadLabels.REVISION, newRevision).build();
          existing = replace(ctx.store().update(existing.withMetadata(m)));
          setProgressing(ConditionStatus.True, WorkloadLabels.REASON_FOUND_NEW_RS,
              "Found new replica set \"" + existing.metadata().name() + "\"", false);
        }
        syncDeploymentRevision(Long.toString(revision(existing)));
        return existing;
      }
      if (!create) {
        return null;
      }
      Integer collisions = d.status().collisionCount();
      String hash = TemplateHash.compute(d.spec().template(), collisions);
      PodTemplateSpec tpl = d.spec().template();
      Map<String, String> labels = new TreeMap<>(tpl.labels());
      labels.put(WorkloadLabels.POD_TEMPLATE_HASH, hash);
      PodTemplateSpec newTpl = new PodTemplateSpec(tpl.metadata().withLabels(labels), tpl.spec());
      Map<String, String> match = new TreeMap<>(d.spec().selector().matchLabels());
      match.put(WorkloadLabels.POD_TEMPLATE_HASH, hash);
      LabelSelector sel = new LabelSelector(match, d.spec().selector().matchExpressions());
      int replicas = DeploymentMath.newRSNewReplicas(d.spec().strategy().type(), d.spec().replicas(),
          DeploymentMath.maxSurge(d.spec()), currentPodCount(), 0);
      String name = d.metadata().name() + "-" + hash;
      ObjectMeta.Builder mb = ObjectMeta.builder().namespace(d.metadata().namespace()).name(name).labels(labels)
          .annotation(WorkloadLabels.REVISION, newRevision)
          .annotation(WorkloadLabels.DESIRED_REPLICAS, Integer.toString(d.spec().replicas()))
          .annotation(WorkloadLabels.MAX_REPLICAS,
              Integer.toString(d.spec().replicas() + DeploymentMath.maxSurge(d.spec())))
          .ownerReference(OwnerReference.controllerOf(d));
      ObjectMeta meta = TraceParent.inherit(d.metadata(), mb).build();
      ReplicaSet rs = new ReplicaSet(meta, new ReplicaSetSpec(replicas, sel, newTpl, d.spec().minReadySeconds()),
          io.fleetkit.api.apps.ReplicaSetStatus.EMPTY);
      ReplicaSet created;
      try {
        created = ctx.store().create(rs);
      } catch (ConflictException e) {
        ReplicaSet other = ctx.store().get(ReplicaSet.class, d.metadata().namespace(), name).orElse(null);
        OwnerReference ref = other == null ? null : other.metadata().controllerRef();
        if (other != null && ref != null && ref.uid().equals(d.metadata().uid())
            && TemplateHash.equalIgnoreHash(other.spec().template(), d.spec().template())) {
          created = other; // our cache was behind
        } else {
          // a hash collision: count it so that the next hash differs, as upstream
          int next = collisions == null ? 1 : collisions + 1;
          DeploymentStatus s = d.status();
          d = ctx.store().updateStatus(d.withStatus(new DeploymentStatus(s.observedGeneration(), s.replicas(),
              s.updatedReplicas(), s.readyReplicas(), s.availableReplicas(), s.unavailableReplicas(),
              s.conditions(), next)));
          throw e;
        }
      }
      rsList = new ArrayList<>(rsList);
      rsList.add(created);
      setProgressing(ConditionStatus.True, WorkloadLabels.REASON_NEW_RS_CREATED,
          "Created new replica set \"" + name + "\"", true);
      syncDeploymentRevision(newRevision);
      return created;
    }

    private void syncDeploymentRevision(String revision) {
      if (!revision.equals(d.metadata().annotations().get(WorkloadLabels.REVISION))) {
        ObjectMeta m = d.metadata().toBuilder().annotation(WorkloadLabels.REVISION, revision).build();
        d = ctx.store().update(d.withMetadata(m));
      }
    }

    private ReplicaSet replace(ReplicaSet updated) {
      List<ReplicaSet> next = new ArrayList<>();
      for (ReplicaSet rs : rsList) {
        next.add(rs.metadata().uid().equals(updated.metadata().uid()) ? updated : rs);
      }
      rsList = next;
      return updated;
    }

    private ReplicaSet scale(ReplicaSet rs, int replicas) {
      String desired = Integer.toString(d.spec().replicas());
      String max = Integer.toString(d.spec().replicas() + DeploymentMath.maxSurge(d.spec()));
      if (rs.spec().replicas() == replicas
          && desired.equals(rs.metadata().annotations().get(WorkloadLabels.DESIRED_REPLICAS))
          && max.equals(rs.metadata().annotations().get(WorkloadLabels.MAX_REPLICAS))) {
        return rs;
      }
      ObjectMeta m = rs.metadata().toBuilder().annotation(WorkloadLabels.DESIRED_REPLICAS, desired)
          .annotation(WorkloadLabels.MAX_REPLICAS, max).build();
      int from = rs.spec().replicas();
      ReplicaSet updated = replace(ctx.store().update(rs.withMetadata(m).withSpec(rs.spec().withReplicas(replicas))));
      if (from != replicas) {
        // upstream scaleReplicaSet: "Scaled %s replica set %s to %d from %d"
        ctx.events().event(d, Event.NORMAL, EventRecorder.SCALING_REPLICA_SET, "Scale", "Scaled "
            + (replicas > from ? "up" : "down") + " replica set " + rs.metadata().name() + " to " + replicas
            + " from " + from);
      }
      return updated;
    }

    private RsView view(ReplicaSet rs) {
      // availability capped at spec.replicas: a ReplicaSet just scaled down will not keep more (see class doc)
      return new RsView(rs.metadata().name(), rs.spec().replicas(),
          Math.min(rs.status().availableReplicas(), rs.spec().replicas()), rs.metadata().creationTimestamp());
    }

    private List<RsView> views(List<ReplicaSet> sets) {
      List<RsView> out = new ArrayList<>();
      for (ReplicaSet rs : sets) {
        out.add(view(rs));
      }
      return out;
    }

    private int activePods(ReplicaSet rs) {
      int n = 0;
      for (Pod p : podsOf(rs)) {
        if (ActivePods.isActive(p)) {
          n++;
        }
      }
      return n;
    }

    /**
     * Pods counted against the surge: per ReplicaSet the larger of spec.replicas and its active pods (a ReplicaSet
     * just scaled down still has its surplus pods until its controller deletes them).
     */
    private int currentPodCount() {
      int n = 0;
      for (ReplicaSet rs : rsList) {
        n += Math.max(rs.spec().replicas(), activePods(rs));
      }
      return n;
    }

    // ---- strategies ---------------------------------------------------------------------------------------------

    Result rolloutRolling() {
      ReplicaSet newRs = newReplicaSet(true);
      List<ReplicaSet> oldRss = olds(newRs);
      int replicas = d.spec().replicas();
      if (newRs != null) {
        int target = DeploymentMath.reconcileNewReplicaSet(replicas, DeploymentMath.maxSurge(d.spec()),
            this::currentPodCount, view(newRs));
        if (target >= 0) {
          newRs = scale(newRs, target);
          return syncRolloutStatus(newRs);
        }
      }
      List<ReplicaSet> activeOld = new ArrayList<>();
      for (ReplicaSet rs : oldRss) {
        if (rs.spec().replicas() > 0) {
          activeOld.add(rs);
        }
      }
      ScaleDown down = DeploymentMath.reconcileOldReplicaSets(replicas, DeploymentMath.maxUnavailable(d.spec()),
          views(rsList), views(activeOld), newRs == null ? null : view(newRs));
      if (down.count() > 0) {
        for (int i = 0; i < activeOld.size(); i++) {
          scale(activeOld.get(i), down.replicaSets().get(i).replicas());
        }
        return syncRolloutStatus(newRs);
      }
      if (newRs != null && DeploymentMath.deploymentComplete(replicas, d.metadata().generation(),
          calculateStatus(newRs))) {
        cleanupHistory(olds(newRs));
      }
      return syncRolloutStatus(newRs);
    }

    Result rolloutRecreate() {
      ReplicaSet newRs = newReplicaSet(false);
      boolean scaledDown = false;
      for (ReplicaSet rs : olds(newRs)) {
        if (rs.spec().replicas() > 0) {
          scale(rs, 0);
          scaledDown = true;
        }
      }
      if (scaledDown) {
        return syncRolloutStatus(newRs);
      }
      if (oldPodsRunning(newRs)) {
        return syncRolloutStatus(newRs);
      }
      if (newRs == null) {
        newRs = newReplicaSet(true);
      }
      if (newRs != null && newRs.spec().replicas() != d.spec().replicas()) {
        newRs = scale(newRs, d.spec().replicas());
        return syncRolloutStatus(newRs);
      }
      if (newRs != null && DeploymentMath.deploymentComplete(d.spec().replicas(), d.metadata().generation(),
          calculateStatus(newRs))) {
        cleanupHistory(olds(newRs));
      }
      return syncRolloutStatus(newRs);
    }

    private boolean oldPodsRunning(@Nullable ReplicaSet newRs) {
      for (ReplicaSet rs : olds(newRs)) {
        if (rs.status().replicas() > 0) {
          return true;
        }
        for (Pod p : podsOf(rs)) {
          if (!p.status().phase().isTerminal()) {
            return true;
          }
        }
      }
      return false;
    }

    /** Paused ({@code sync}): no rollout, but replica changes are applied with {@link #proportionalScale}. */
    Result syncPaused() {
      ReplicaSet newRs = newReplicaSet(false);
      proportionalScale(newRs);
      cleanupHistory(olds(newRs == null ? null : current(newRs)));
      return syncRolloutStatus(newRs == null ? null : current(newRs));
    }

    private ReplicaSet current(ReplicaSet rs) {
      for (ReplicaSet r : rsList) {
        if (r.metadata().uid().equals(rs.metadata().uid())) {
          return r;
        }
      }
      return rs;
    }

    private static @Nullable Integer intAnnotation(ReplicaSet rs, String key) {
      String v = rs.metadata().annotations().get(key);
      if (v == null) {
        return null;
      }
      try {
        return GoIntegers.atoi32(v); // getIntFromAnnotation: strconv.Atoi
      } catch (NumberFormatException e) {
        return null;
      }
    }

    /** {@code isScalingEvent}: an active ReplicaSet was sized for a different {@code replicas}. */
    private boolean isScalingEvent() {
      for (ReplicaSet rs : rsList) {
        Integer desired = intAnnotation(rs, WorkloadLabels.DESIRED_REPLICAS);
        if (rs.spec().replicas() > 0 && desired != null && desired != d.spec().replicas()) {
          return true;
        }
      }
      return false;
    }

    /**
     * Upstream's {@code scale}: the only active (or the latest) ReplicaSet takes all replicas; a saturated new
     * ReplicaSet scales the old ones to 0; otherwise, in a rolling update, the difference to
     * {@code replicas + maxSurge} is spread over the active ReplicaSets in proportion to their size (by the
     * {@value WorkloadLabels#MAX_REPLICAS} annotation), larger first, leftovers to the largest.
     */
    private void proportionalScale(@Nullable ReplicaSet newRs) {
      int replicas = d.spec().replicas();
      List<ReplicaSet> oldRss = olds(newRs);
      List<ReplicaSet> active = new ArrayList<>();
      for (ReplicaSet rs : rsList) {
        if (rs.spec().replicas() > 0) {
          active.add(rs);
        }
      }
      ReplicaSet activeOrLatest = null;
      if (active.size() == 1) {
        activeOrLatest = active.get(0);
      } else if (active.isEmpty() && (newRs != null || !oldRss.isEmpty())) {
        if (newRs != null) {
          activeOrLatest = newRs;
        } else {
          oldRss.sort((a, b) -> DeploymentMath.BY_CREATION.compare(view(b), view(a)));
          activeOrLatest = oldRss.get(0);
        }
      }
      if (activeOrLatest != null) {
        if (activeOrLatest.spec().replicas() != replicas) {
          scale(activeOrLatest, replicas);
        }
        return;
      }
      if (newRs != null && Integer.valueOf(replicas).equals(intAnnotation(newRs, WorkloadLabels.DESIRED_REPLICAS))
          && newRs.status().availableReplicas() == replicas && newRs.spec().replicas() == replicas) {
        for (ReplicaSet old : oldRss) {
          if (old.spec().replicas() > 0) {
            scale(old, 0);
          }
        }
        return;
      }
      if (d.spec().strategy().type() != DeploymentStrategyType.RollingUpdate) {
        return;
      }
      int allReplicas = 0;
      for (ReplicaSet rs : active) {
        allReplicas += rs.spec().replicas();
      }
      int allowedSize = replicas > 0 ? replicas + DeploymentMath.maxSurge(d.spec()) : 0;
      int toAdd = allowedSize - allReplicas;
      if (toAdd > 0) { // larger first, newer first among equals
        active.sort((a, b) -> a.spec().replicas() != b.spec().replicas()
            ? Integer.compare(b.spec().replicas(), a.spec().replicas())
            : DeploymentMath.BY_CREATION.compare(view(b), view(a)));
      } else if (toAdd < 0) { // larger first, older first among equals
        active.sort((a, b) -> a.spec().replicas() != b.spec().replicas()
            ? Integer.compare(b.spec().replicas(), a.spec().replicas())
            : DeploymentMath.BY_CREATION.compare(view(a), view(b)));
      }
      int added = 0;
      int[] sizes = new int[active.size()];
      for (int i = 0; i < active.size(); i++) {
        ReplicaSet rs = active.get(i);
        int proportion = 0;
        if (toAdd != 0) {
          proportion = proportion(rs, toAdd, added);
          added += proportion;
        }
        sizes[i] = rs.spec().replicas() + proportion;
      }
      for (int i = 0; i < active.size(); i++) {
        if (i == 0 && toAdd != 0) {
          sizes[0] = Math.max(0, sizes[0] + toAdd - added);
        }
        scale(active.get(i), sizes[i]);
      }
    }

    /** {@code GetProportion} with {@code getReplicaSetFraction}. */
    private int proportion(ReplicaSet rs, int toAdd, int added) {
      if (rs.spec().replicas() == 0 || toAdd == 0 || toAdd == added) {
        return 0;
      }
      int fraction;
      if (d.spec().replicas() == 0) {
        fraction = -rs.spec().replicas();
      } else {
        int deploymentReplicas = d.spec().replicas() + DeploymentMath.maxSurge(d.spec());
        Integer annotated = intAnnotation(rs, WorkloadLabels.MAX_REPLICAS);
        int base = annotated != null ? annotated : d.status().replicas();
        fraction = base == 0 ? 0
            : (int) Math.round((double) rs.spec().replicas() * deploymentReplicas / base) - rs.spec().replicas();
      }
      int allowed = toAdd - added;
      return toAdd > 0 ? Math.min(fraction, allowed) : Math.max(fraction, allowed);
    }

    /** {@code checkPausedConditions}: Progressing=Unknown with DeploymentPaused / DeploymentResumed. */
    private @Nullable Result checkPausedConditions() {
      if (!DeploymentMath.hasProgressDeadline(d.spec().progressDeadlineSeconds())) {
        return null;
      }
      DeploymentCondition c = d.status().condition(DeploymentCondition.PROGRESSING);
      if (c != null && c.reason().equals(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED)) {
        return null; // a timed-out rollout stays timed out until the template changes
      }
      boolean pausedCond = c != null && c.reason().equals(WorkloadLabels.REASON_PAUSED);
      if (d.spec().paused() && !pausedCond) {
        setProgressing(ConditionStatus.Unknown, WorkloadLabels.REASON_PAUSED, "Deployment is paused", true);
      } else if (!d.spec().paused() && pausedCond) {
        setProgressing(ConditionStatus.Unknown, WorkloadLabels.REASON_RESUMED, "Deployment is resumed", true);
      }
      return null;
    }

    /** {@code cleanupDeployment}: delete the oldest idle old ReplicaSets beyond revisionHistoryLimit. */
    private void cleanupHistory(List<ReplicaSet> oldRss) {
      List<ReplicaSet> alive = new ArrayList<>();
      for (ReplicaSet rs : oldRss) {
        if (rs.metadata().deletionTimestamp() == null) {
          alive.add(rs);
        }
      }
      int diff = alive.size() - d.spec().revisionHistoryLimit();
      if (diff <= 0) {
        return;
      }
      alive.sort((a, b) -> {
        int c = Long.compare(revision(a), revision(b));
        return c != 0 ? c : DeploymentMath.BY_CREATION.compare(view(a), view(b));
      });
      for (int i = 0; i < diff; i++) {
        ReplicaSet rs = alive.get(i);
        if (rs.status().replicas() != 0 || rs.spec().replicas() != 0
            || rs.metadata().generation() > rs.status().observedGeneration()) {
          continue;
        }
        ctx.store().delete(ReplicaSet.class, rs.metadata().namespace(), rs.metadata().name(),
            io.fleetkit.api.store.DeletePreconditions.uid(rs.metadata().uid()));
      }
    }

    // ---- status ---------------------------------------------------------------------------------------------

    private DeploymentStatus calculateStatus(@Nullable ReplicaSet newRs) {
      int available = 0;
      int total = 0;
      int actual = 0;
      int ready = 0;
      for (ReplicaSet rs : rsList) {
        available += rs.status().availableReplicas();
        total += rs.spec().replicas();
        actual += rs.status().replicas();
        ready += rs.status().readyReplicas();
      }
      int unavailable = Math.max(0, total - available);
      List<DeploymentCondition> conds = new ArrayList<>(d.status().conditions());
      if (available >= d.spec().replicas() - DeploymentMath.maxUnavailable(d.spec())) {
        setCondition(conds, new DeploymentCondition(DeploymentCondition.AVAILABLE, ConditionStatus.True,
            WorkloadLabels.REASON_MINIMUM_REPLICAS_AVAILABLE, "Deployment has minimum availability.", now, now));
      } else {
        setCondition(conds, new DeploymentCondition(DeploymentCondition.AVAILABLE, ConditionStatus.False,
            WorkloadLabels.REASON_MINIMUM_REPLICAS_UNAVAILABLE, "Deployment does not have minimum availability.",
            now, now));
      }
      return new DeploymentStatus(d.metadata().generation(), actual, newRs == null ? 0 : newRs.status().replicas(),
          ready, available, unavailable, conds, d.status().collisionCount());
    }

    /** Upstream's {@code SetDeploymentCondition}: same status and reason is no change; keep transition time. */
    static void setCondition(List<DeploymentCondition> conds, DeploymentCondition c) {
      for (int i = 0; i < conds.size(); i++) {
        DeploymentCondition cur = conds.get(i);
        if (cur.type().equals(c.type())) {
          if (cur.status() == c.status() && cur.reason().equals(c.reason())) {
            return;
          }
          Instant transition = cur.status() == c.status() ? cur.lastTransitionTime() : c.lastTransitionTime();
          conds.set(i, new DeploymentCondition(c.type(), c.status(), c.reason(), c.message(), c.lastUpdateTime(),
              transition));
          return;
        }
      }
      conds.add(c);
    }

    /** Sets the Progressing condition on the stored Deployment now (creation, found, paused events). */
    private void setProgressing(ConditionStatus status, String reason, String message, boolean always) {
      if (!DeploymentMath.hasProgressDeadline(d.spec().progressDeadlineSeconds()) && !always) {
        return;
      }
      List<DeploymentCondition> conds = new ArrayList<>(d.status().conditions());
      setCondition(conds, new DeploymentCondition(DeploymentCondition.PROGRESSING, status, reason, message, now,
          now));
      DeploymentStatus s = d.status();
      DeploymentStatus next = new DeploymentStatus(s.observedGeneration(), s.replicas(), s.updatedReplicas(),
          s.readyReplicas(), s.availableReplicas(), s.unavailableReplicas(), conds, s.collisionCount());
      if (!next.equals(s)) {
        d = ctx.store().updateStatus(d.withStatus(next));
      }
    }

    /** {@code syncRolloutStatus} plus {@code requeueStuckDeployment}. */
    Result syncRolloutStatus(@Nullable ReplicaSet newRs) {
      DeploymentStatus newStatus = calculateStatus(newRs);
      List<DeploymentCondition> conds = new ArrayList<>(newStatus.conditions());
      int pds = d.spec().progressDeadlineSeconds();
      if (!DeploymentMath.hasProgressDeadline(pds)) {
        conds.removeIf(c -> c.type().equals(DeploymentCondition.PROGRESSING));
      }
      DeploymentCondition current = d.status().condition(DeploymentCondition.PROGRESSING);
      boolean complete = newStatus.replicas() == newStatus.updatedReplicas() && current != null
          && current.reason().equals(WorkloadLabels.REASON_NEW_RS_AVAILABLE);
      String rsName = newRs == null ? "" : newRs.metadata().name();
      if (DeploymentMath.hasProgressDeadline(pds) && !complete && !d.spec().paused()) {
        if (DeploymentMath.deploymentComplete(d.spec().replicas(), d.metadata().generation(), newStatus)) {
          setCondition(conds, new DeploymentCondition(DeploymentCondition.PROGRESSING, ConditionStatus.True,
              WorkloadLabels.REASON_NEW_RS_AVAILABLE, "ReplicaSet \"" + rsName + "\" has successfully progressed.",
              now, now));
        } else if (DeploymentMath.deploymentProgressing(d.status(), newStatus)) {
          Instant transition = current != null && current.status() == ConditionStatus.True
              ? current.lastTransitionTime() : now;
          conds.removeIf(c -> c.type().equals(DeploymentCondition.PROGRESSING));
          conds.add(new DeploymentCondition(DeploymentCondition.PROGRESSING, ConditionStatus.True,
              WorkloadLabels.REASON_RS_UPDATED, "ReplicaSet \"" + rsName + "\" is progressing.", now, transition));
        } else if (DeploymentMath.deploymentTimedOut(pds, withConditions(newStatus, conds), now)) {
          setCondition(conds, new DeploymentCondition(DeploymentCondition.PROGRESSING, ConditionStatus.False,
              WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED,
              "ReplicaSet \"" + rsName + "\" has timed out progressing.", now, now));
        }
      }
      // Move the ReplicaFailure condition of the new replica set (else of an old one) into the deployment's.
      DeploymentCondition failure = replicaFailure(newRs == null ? null : current(newRs));
      if (failure != null) {
        setCondition(conds, failure);
      } else {
        conds.removeIf(c -> c.type().equals(DeploymentCondition.REPLICA_FAILURE));
      }
      DeploymentStatus finalStatus = withConditions(newStatus, conds);
      if (!finalStatus.equals(d.status())) {
        d = ctx.store().updateStatus(d.withStatus(finalStatus));
      }
      DeploymentCondition after = finalStatus.condition(DeploymentCondition.PROGRESSING);
      if (after != null && after.reason().equals(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED)
          && (current == null || !current.reason().equals(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED))
          && "true".equals(d.metadata().annotations().get(WorkloadLabels.ROLLBACK_ON_PROGRESS_DEADLINE))) {
        try {
          d = io.fleetkit.reconcile.controllers.DeploymentController.rollback(ctx.store(), d.metadata().namespace(),
              d.metadata().name(), 0);
          LOG.debug("deployment {}: progress deadline exceeded, rolled back to the previous revision",
              d.metadata().key());
          return Result.requeueAfter(java.time.Duration.ZERO);
        } catch (NotFoundException e) {
          LOG.debug("deployment {}: progress deadline exceeded, no earlier revision to roll back to",
              d.metadata().key());
        }
      }
      return requeueStuck(finalStatus);
    }

    /** Upstream's {@code getReplicaFailures}: the new replica set's ReplicaFailure first, then the old ones'. */
    private @Nullable DeploymentCondition replicaFailure(@Nullable ReplicaSet newRs) {
      io.fleetkit.api.apps.ReplicaSetCondition c = newRs == null ? null
          : newRs.status().condition(io.fleetkit.api.apps.ReplicaSetCondition.REPLICA_FAILURE);
      for (int i = 0; c == null && i < rsList.size(); i++) {
        c = rsList.get(i).status().condition(io.fleetkit.api.apps.ReplicaSetCondition.REPLICA_FAILURE);
      }
      return c == null ? null : new DeploymentCondition(DeploymentCondition.REPLICA_FAILURE, c.status(), c.reason(),
          c.message(), c.lastTransitionTime(), c.lastTransitionTime());
    }

    private static DeploymentStatus withConditions(DeploymentStatus s, List<DeploymentCondition> conds) {
      return new DeploymentStatus(s.observedGeneration(), s.replicas(), s.updatedReplicas(), s.readyReplicas(),
          s.availableReplicas(), s.unavailableReplicas(), conds, s.collisionCount());
    }

    /** Wake up when the progress deadline would pass, so a stuck rollout gets its condition. */
    private Result requeueStuck(DeploymentStatus status) {
      DeploymentCondition c = status.condition(DeploymentCondition.PROGRESSING);
      int pds = d.spec().progressDeadlineSeconds();
      if (c == null || !DeploymentMath.hasProgressDeadline(pds) || d.spec().paused()
          || c.reason().equals(WorkloadLabels.REASON_NEW_RS_AVAILABLE)
          || c.reason().equals(WorkloadLabels.REASON_PROGRESS_DEADLINE_EXCEEDED)
          || c.status() != ConditionStatus.True || c.lastUpdateTime() == null) {
        return Result.done();
      }
      Duration after = Duration.between(now, c.lastUpdateTime().plusSeconds(pds)).plusSeconds(1);
      return Result.requeueAfter(after.isNegative() ? Duration.ZERO : after);
    }
  }

  /** The ReplicaSets of a Deployment by revision (for rollback), in revision order. */
  public static Map<Long, ReplicaSet> revisions(List<ReplicaSet> owned) {
    Map<Long, ReplicaSet> byRevision = new TreeMap<>();
    for (ReplicaSet rs : owned) {
      byRevision.put(Sync.revision(rs), rs);
    }
    return new LinkedHashMap<>(byRevision);
  }

  /** The spec of {@code d} with the template of {@code rs} (its pod-template-hash label removed). */
  public static DeploymentSpec specWithTemplateOf(Deployment d, ReplicaSet rs) {
    DeploymentSpec s = d.spec();
    return new DeploymentSpec(s.replicas(), s.selector(), TemplateHash.withoutHash(rs.spec().template()),
        s.strategy(), s.minReadySeconds(), s.revisionHistoryLimit(), s.progressDeadlineSeconds(), s.paused());
  }
}
