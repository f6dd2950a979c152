package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.RolloutPhase;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.internal.ControllerRefManager;
import io.fleetkit.reconcile.controllers.internal.TemplateHash;
import io.fleetkit.reconcile.rollouts.TrafficRouter;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Rollout reconciler (Argo Rollouts' {@code rollout/sync.go}, {@code rolloututil.go}): claim the ReplicaSets
 * through the shared {@link ControllerRefManager} as Argo's {@code getReplicaSetsForRollouts} does (orphans the
 * selector matches are adopted, controlled ones that stop matching released), find or create the
 * ReplicaSet of the current template (label {@value Rollout#POD_TEMPLATE_HASH_LABEL}), reset the steps when the
 * template changes, run the canary or blue-green sync, then count replicas, check the progress deadline (an
 * update making no progress for {@code progressDeadlineSeconds} is Degraded, and aborted with
 * {@code progressDeadlineAbort}), compute the phase (Degraded, Paused, Progressing, Healthy; first match wins) and
 * write the status. Comes back when a timed pause, an auto-promotion, a scale-down delay or the deadline is due.
 */
public final class RolloutReconciler implements Reconciler<Rollout> {
  private static final Logger LOG = LoggerFactory.getLogger(RolloutReconciler.class);
  /** Message prefix of a missed progress deadline. */
  public static final String PROGRESS_DEADLINE_EXCEEDED = "ProgressDeadlineExceeded";

  private final @Nullable TrafficRouter router;
  /** The phases of the rollouts' analysis runs last seen, for their events (kept only when events are recorded). */
  private final AnalysisRunEvents runEvents = new AnalysisRunEvents();

  public RolloutReconciler(@Nullable TrafficRouter router) {
    this.router = router;
  }

  @Override
  public Result reconcile(ReconcileContext<Rollout> ctx) {
    Rollout r = ctx.object().orElse(null);
    if (r == null || r.metadata().deletionTimestamp() != null) {
      runEvents.forget(ctx.key().toString());
      return Result.done();
    }
    try {
      return sync(ctx, ctx.store().require(Rollout.class, r.metadata().namespace(), r.metadata().name()));
    } catch (ConflictException | NotFoundException e) {
      return Result.requeue();
    }
  }

  private Result sync(ReconcileContext<Rollout> ctx, Rollout r) {
    Instant now = ctx.now();
    ControllerRefManager.Claim<ReplicaSet> claim = claimReplicaSets(ctx.store(), r);
    if (claim.failed()) {
      LOG.debug("rollout {}: claiming ReplicaSets failed, requeueing: {}", r.metadata().key(), claim.errors());
      return Result.requeue();
    }
    List<ReplicaSet> owned = claim.claimed();
    String hash = TemplateHash.compute(r.spec().template(), null);
    RolloutSync s = new RolloutSync(ctx.store(), r, now, hash, owned, ctx.events());
    s.runEvents = runEvents;
    boolean written = false;
    try {
      written = sync(ctx, r, s);
    } finally {
      s.flushEvents(written);
    }
    if (s.wakeAt == null) {
      return Result.done();
    }
    Duration d = Duration.between(now, s.wakeAt);
    return Result.requeueAfter(d.isNegative() ? Duration.ZERO : d);
  }

  /** The sync proper; returns whether it wrote the status. */
  private boolean sync(ReconcileContext<Rollout> ctx, Rollout r, RolloutSync s) {
    RolloutStatus old = r.status();
    if (!s.hash.equals(old.currentPodHash())) {
      newUpdate(s, old);
    }
    s.resolveStable(s.b.build().stableRs());
    if (s.b.build().abort()) {
      s.terminateRuns();
    }
    if (r.canary() != null) {
      EphemeralMetadata.reconcile(s);
      CanarySteps.sync(s, router);
      canaryWeight(s);
    } else {
      BlueGreenSteps.sync(s);
      EphemeralMetadata.reconcile(s);
    }
    finish(s, old);
    RolloutStatus next = s.b.build();
    if (next.equals(old)) {
      return false;
    }
    ctx.store().updateStatus(r.withStatus(next));
    if (s.recording()) {
      RolloutEvents.statusChanged(s, r, old, next, s.revision(s.newRs), s.abortReason);
      s.pauseEvents();
    }
    return true;
  }

  /**
   * Argo's {@code getReplicaSetsForRollouts}: {@code ClaimReplicaSets} over every ReplicaSet in the rollout's
   * namespace (those it controls but that no longer match are released; matching orphans adopted after the deletion
   * recheck). The list is read from the store, as the rest of the sync reads and writes it; a failed adoption or
   * release is in the claim's errors and fails the sync.
   */
  static ControllerRefManager.Claim<ReplicaSet> claimReplicaSets(ObjectStore store, Rollout r) {
    return ControllerRefManager.forSync(store, r, r.spec().selector())
        .claim(store.list(ReplicaSet.class, r.metadata().namespace()).items());
  }

  /**
   * A new template: no pause, no abort, analyses of the old version stopped; a canary's steps from 0 (none without
   * steps: Argo's {@code ResetCurrentStepIndex}), or all of them done when the template is the stable one (the first
   * template, which Argo's {@code syncRolloutStatusCanary} makes stable at once, or a return to the stable
   * template, "Rollback to stable").
   */
  private static void newUpdate(RolloutSync s, RolloutStatus old) {
    s.terminateRuns();
    if (s.runEvents != null) {
      s.runEvents.forget(s.r.metadata().key()); // Argo's resetRolloutStatus: no current runs recorded
    }
    boolean stable = old.stableRs().isEmpty() || old.stableRs().equals(s.hash);
    Integer index = null;
    if (s.r.canary() != null && !s.r.canary().steps().isEmpty()) {
      index = stable ? s.r.canary().steps().size() : 0;
      if (stable && !old.stableRs().isEmpty() && s.recording()) {
        s.onStatusWrite(io.fleetkit.api.events.Event.NORMAL, RolloutEvents.SKIP_STEPS, "SkipSteps",
            "Rollback to stable ReplicaSets");
      }
    }
    s.b.currentPodHash(s.hash).pauseConditions(List.of()).controllerPause(false).abort(false).abortedAt(null)
        .promoteFull(false).scaleUpPreviewCheckPoint(false).message("").lastProgressTime(s.now)
        .currentStepIndex(index);
    if (old.stableRs().isEmpty()) {
      s.b.stableRs(s.hash);
    }
  }

  /**
   * The Services' selectors, and the traffic weight without a router: the ratio of ready canary pods. With a
   * router the weight was set before the steps ran.
   */
  private void canaryWeight(RolloutSync s) {
    RolloutStatus st = s.b.build();
    var c = s.r.canary();
    s.selectVersion(c.stableService(), st.stableRs());
    if (!CanarySteps.rollingBackToStable(s)) {
      // reconcileStableAndCanaryService: while rolling back to stable dynamically, the canary Service stays on the
      // previous canary, whose pods still carry the weight
      s.selectVersion(c.canaryService(), s.hash);
    }
    boolean promoted = st.stableRs().equals(s.hash);
    if (c.trafficRouting() != null && router != null) {
      return;
    }
    if (promoted) {
      s.b.canaryWeight(0);
      return;
    }
    int canaryReady = s.newRs.status().readyReplicas();
    int stableReady = s.stableRs == null ? 0 : s.stableRs.status().readyReplicas();
    int total = canaryReady + stableReady;
    s.b.canaryWeight(total == 0 ? 0 : (int) Math.round(100.0 * canaryReady / total));
  }

  /** Replica counts, progress, the deadline and the phase. */
  private static void finish(RolloutSync s, RolloutStatus old) {
    int replicas = 0;
    int ready = 0;
    int available = 0;
    for (ReplicaSet rs : s.sets.values()) {
      replicas += rs.status().replicas();
      ready += rs.status().readyReplicas();
      available += rs.status().availableReplicas();
    }
    int updated = s.newRs.status().replicas();
    s.b.replicas(replicas).readyReplicas(ready).availableReplicas(available).updatedReplicas(updated)
        .observedGeneration(s.r.metadata().generation());
    RolloutStatus st = s.b.build();
    boolean progressed = st.updatedReplicas() != old.updatedReplicas()
        || st.availableReplicas() != old.availableReplicas() || st.readyReplicas() != old.readyReplicas()
        || !Objects.equals(st.currentStepIndex(), old.currentStepIndex())
        || !st.activeSelector().equals(old.activeSelector()) || !st.stableRs().equals(old.stableRs());
    if (progressed || st.lastProgressTime() == null) {
      s.b.lastProgressTime(s.now);
    }
    st = s.b.build();
    boolean paused = s.r.spec().paused() || !st.pauseConditions().isEmpty();
    boolean inUpdate = !st.stableRs().equals(s.hash)
        || (s.r.blueGreen() != null && !st.activeSelector().equals(s.hash));
    boolean deadlineExceeded = false;
    if (inUpdate && !st.abort() && !paused) {
      Instant deadline = st.lastProgressTime().plusSeconds(s.r.spec().progressDeadlineSeconds());
      if (!s.now.isBefore(deadline)) {
        deadlineExceeded = true;
        String msg = PROGRESS_DEADLINE_EXCEEDED + ": ReplicaSet \"" + s.newRs.metadata().name()
            + "\" has timed out progressing.";
        if (s.r.spec().progressDeadlineAbort()) {
          s.abort(msg);
        } else {
          s.b.message(msg);
        }
      } else {
        s.wakeAt(deadline);
      }
    }
    st = s.b.build();
    RolloutPhase phase;
    String message = st.message();
    if (st.abort() || deadlineExceeded) {
      phase = RolloutPhase.Degraded;
    } else if (paused) {
      phase = RolloutPhase.Paused;
      message = s.r.spec().paused() ? "manually paused" : st.pauseConditions().get(0).reason();
    } else if (inUpdate || st.updatedReplicas() < s.r.spec().replicas()
        || st.availableReplicas() < st.updatedReplicas() || st.replicas() > st.updatedReplicas()) {
      phase = RolloutPhase.Progressing;
      message = inUpdate ? (s.r.canary() != null ? "waiting for all steps to complete"
          : "active service cutover pending") : st.replicas() > st.updatedReplicas()
          ? "old replicas are pending termination" : "updated replicas are still becoming available";
    } else {
      phase = RolloutPhase.Healthy;
      message = "";
    }
    if (s.routingError != null && (phase == RolloutPhase.Progressing || phase == RolloutPhase.Paused)) {
      message = s.routingError; // what holds the rollout up
    }
    s.b.phase(phase).message(message);
  }
}
