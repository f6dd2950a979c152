package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.PauseCondition;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.api.rollouts.TrafficRouting;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import io.fleetkit.reconcile.rollouts.TrafficRouter;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A canary rollout's sync (Argo Rollouts' {@code rollout/canary.go}, {@code pause.go}, {@code analysis.go}): scale
 * the canary and stable ReplicaSets with {@link CanaryMath} for the current step, advance through the steps
 * (setWeight and setCanaryScale once the counts are reached, timed and indefinite pauses, analysis runs,
 * setHeaderRoute and setMirrorRoute once the router applied them), run the
 * background analysis, promote when the steps are done, and abort on a failed analysis. Stateless.
 */
final class CanarySteps {
  /** Message prefix when the router cannot apply a weight (Argo's event reason). */
  static final String TRAFFIC_ROUTING_ERROR = "TrafficRoutingError";
  /** How soon a sync whose routing failed is retried. */
  static final java.time.Duration ROUTING_RETRY = java.time.Duration.ofSeconds(10);

  private CanarySteps() {}

  static void sync(RolloutSync s, @Nullable TrafficRouter router) {
    CanaryStrategy c = s.r.canary();
    if (c.trafficRouting() != null && router != null && !route(s, router)) {
      return; // as Argo: a routing error stops the sync before scaling and steps; retried
    }
    List<CanaryStep> steps = c.steps();
    for (int guard = 0; guard <= steps.size() + 2; guard++) {
      RolloutStatus st = s.b.build();
      boolean promoted = st.stableRs().equals(s.hash);
      CanaryView v = view(s, st);
      CanaryMath.Counts counts = counts(s, v, router);
      applyCounts(s, v, counts);
      if (promoted || st.abort() || s.r.spec().paused()) {
        break;
      }
      background(s, c, st);
      if (s.abortReason != null) {
        continue; // scale for the abort on the next round
      }
      if (st.promoteFull() && !steps.isEmpty() && !Integer.valueOf(steps.size()).equals(st.currentStepIndex())) {
        // Argo's syncRolloutStatusCanary: a full promotion skips the remaining steps (and their pauses)
        s.b.currentStepIndex(steps.size());
        continue;
      }
      int idx = st.currentStepIndex() == null ? 0 : st.currentStepIndex();
      if (idx >= steps.size()) {
        if (atDesired(s, counts, c.trafficRouting() == null)) {
          s.b.stableRs(s.hash).pauseConditions(List.of()).controllerPause(false);
          s.terminateRuns();
          continue; // scale the old stable down
        }
        break;
      }
      CanaryStep step = steps.get(idx);
      if (step instanceof CanaryStep.SetHeaderRoute || step instanceof CanaryStep.SetMirrorRoute) {
        if (!st.promoteFull() && c.trafficRouting() != null && router != null && !managedRoute(s, router, step)) {
          break;
        }
        completed(s, idx, step); // Argo: these steps complete once applied
      } else if (step instanceof CanaryStep.SetWeight || step instanceof CanaryStep.SetCanaryScale) {
        if (!atDesired(s, counts, c.trafficRouting() == null)) {
          break;
        }
        completed(s, idx, step);
      } else if (step instanceof CanaryStep.Pause p) {
        PauseCondition cond = st.pauseCondition(PauseCondition.CANARY_PAUSE_STEP);
        if (cond == null && s.promotedByUser()) {
          s.unpause();
          completed(s, idx, step);
          continue;
        }
        Instant start = s.pause(PauseCondition.CANARY_PAUSE_STEP);
        if (p.duration() == null) {
          break;
        }
        Instant end = start.plus(p.duration());
        if (s.now.isBefore(end)) {
          s.wakeAt(end);
          break;
        }
        s.unpause();
        completed(s, idx, step);
      } else if (step instanceof CanaryStep.Analysis a) {
        AnalysisPhase phase = stepAnalysis(s, a.analysis(), st, idx);
        if (phase == AnalysisPhase.Successful) {
          s.b.analysisRun("");
          completed(s, idx, step);
        } else {
          break;
        }
      }
    }
  }

  /** Step {@code idx} is done: the index moves past it, with Argo's {@code RolloutStepCompleted} event. */
  private static void completed(RolloutSync s, int idx, CanaryStep step) {
    s.b.currentStepIndex(idx + 1);
    s.analysisRunCleared(AnalysisRunEvents.STEP); // Argo's CurrentStepAnalysisRunStatus = nil
    if (s.recording()) {
      s.onStatusWrite(io.fleetkit.api.events.Event.NORMAL, RolloutEvents.STEP_COMPLETED, "Step",
          RolloutEvents.stepCompleted(idx + 1, s.r.canary().steps().size(), step));
      s.pauseEvents();
    }
  }

  /**
   * Argo's {@code reconcileTrafficRouting}: hands the router the weight for the current status
   * ({@link CanaryMath#desiredTrafficWeight}) and records the weight it reports. On a failure records the reason
   * (shown as the rollout's message), comes back in {@link #ROUTING_RETRY} and returns false.
   */
  private static boolean route(RolloutSync s, TrafficRouter router) {
    RolloutStatus st = s.b.build();
    CanaryView v = view(s, st);
    CanaryMath.Counts counts = counts(s, v, router);
    RsView newV = RolloutSync.view(s.newRs);
    RsView stableV = RolloutSync.view(s.stableRs);
    boolean rollingBack = rollingBackToStable(s);
    int desired;
    if (rollingBack) {
      // calculateDesiredWeightOnAbortOrStableRollback, then checkReplicasAvailable: the weight stays on the
      // previous canary (its Service still selects it) until the stable pods can carry the traffic
      desired = CanaryMath.weightOnAbort(v, newV, stableV, st.canaryWeight());
      if (stableV != null && stableV.available()
          < (CanaryMath.MAX_WEIGHT - desired) * s.r.spec().replicas() / CanaryMath.MAX_WEIGHT) {
        desired = st.canaryWeight();
      }
    } else {
      desired = CanaryMath.desiredTrafficWeight(v, newV, stableV, atDesired(s, counts, false), st.canaryWeight());
    }
    TrafficRouting routing = s.r.canary().trafficRouting();
    try {
      if (!rollingBack && removesManagedRoutes(s, st)) {
        router.removeManagedRoutes(s.r, routing);
      }
      s.b.canaryWeight(router.setWeight(s.r, routing, desired))
          .canaryWeightHash(rollingBack ? st.canaryWeightHash() : s.hash);
      return true;
    } catch (RuntimeException e) {
      routingFailed(s, e);
      return false;
    }
  }

  /**
   * {@link CanaryMath#dynamicallyRollingBackToStable} for this sync: the desired ReplicaSet is the new one, the weight
   * hash the one recorded before this sync.
   */
  static boolean rollingBackToStable(RolloutSync s) {
    RolloutStatus st = s.r.status();
    CanaryStrategy c = s.r.canary();
    CanaryView v = new CanaryView(s.r.spec().replicas(), c.steps(), st.currentStepIndex(), c.maxSurge(),
        c.maxUnavailable(), c.trafficRouting() != null, c.dynamicStableScale(), c.abortScaleDownDelaySeconds(),
        c.minPodsPerReplicaSet(), st.abort(), st.promoteFull(), s.b.build().stableRs(), s.hash);
    return CanaryMath.dynamicallyRollingBackToStable(v, st.canaryWeightHash().isEmpty() ? null
        : st.canaryWeightHash(), s.hash, s.newRs.status().availableReplicas());
  }

  /**
   * Argo's branches of {@code reconcileTrafficRouting} that call {@code RemoveManagedRoutes}: the rollout is fully
   * promoted (the stable is the current version: completed, or a first deploy), aborted, fully promoted by hand, or
   * the new version has no available pod (an update superseded mid-way must not keep routing to it).
   */
  static boolean removesManagedRoutes(RolloutSync s, RolloutStatus st) {
    return st.stableRs().equals(s.hash) || st.abort() || st.promoteFull()
        || s.newRs.status().availableReplicas() == 0;
  }

  /**
   * Applies a {@code setHeaderRoute} or {@code setMirrorRoute} step through the router; on a failure records the
   * reason, comes back in {@link #ROUTING_RETRY} and returns false (the step is not passed).
   */
  private static boolean managedRoute(RolloutSync s, TrafficRouter router, CanaryStep step) {
    TrafficRouting routing = s.r.canary().trafficRouting();
    try {
      if (step instanceof CanaryStep.SetHeaderRoute h) {
        router.setHeaderRoute(s.r, routing, h);
      } else {
        router.setMirrorRoute(s.r, routing, (CanaryStep.SetMirrorRoute) step);
      }
      return true;
    } catch (RuntimeException e) {
      routingFailed(s, e);
      return false;
    }
  }

  private static void routingFailed(RolloutSync s, RuntimeException e) {
    s.routingError = TRAFFIC_ROUTING_ERROR + ": " + e.getMessage();
    s.wakeAt(s.now.plus(ROUTING_RETRY));
  }

  private static CanaryView view(RolloutSync s, RolloutStatus st) {
    CanaryStrategy c = s.r.canary();
    s.resolveStable(st.stableRs());
    return new CanaryView(s.r.spec().replicas(), c.steps(), st.currentStepIndex(), c.maxSurge(), c.maxUnavailable(),
        c.trafficRouting() != null, c.dynamicStableScale(), c.abortScaleDownDelaySeconds(), c.minPodsPerReplicaSet(),
        st.abort(), st.promoteFull(), st.stableRs(), s.hash);
  }

  private static CanaryMath.Counts counts(RolloutSync s, CanaryView v, @Nullable TrafficRouter router) {
    RsView newV = RolloutSync.view(s.newRs);
    RsView stableV = RolloutSync.view(s.stableRs);
    if (s.r.canary().trafficRouting() != null) {
      int w = s.b.build().canaryWeight();
      return CanaryMath.trafficRoutedCanary(v, newV, stableV,
          router == null ? null : new CanaryMath.TrafficWeights(w, CanaryMath.MAX_WEIGHT - w));
    }
    List<RsView> older = new ArrayList<>();
    for (ReplicaSet rs : s.others) {
      older.add(RolloutSync.view(rs));
    }
    return CanaryMath.basicCanary(v, newV, stableV, older);
  }

  /**
   * {@code reconcileCanaryReplicaSets}: deadlines of the new and stable ReplicaSets removed, the stable and the new
   * ReplicaSet scaled (the new one held for {@code abortScaleDownDelaySeconds} after an abort), older ones scaled
   * down.
   */
  private static void applyCounts(RolloutSync s, CanaryView v, CanaryMath.Counts counts) {
    ScaleDownDelays.removeDeadlines(s);
    if (s.stableRs != null && !s.stableRs.metadata().name().equals(s.newRs.metadata().name())) {
      s.scale(s.stableRs, counts.stable());
    }
    Integer canary = ScaleDownDelays.newReplicaSetCount(s, counts.canary());
    if (canary != null) {
      s.scale(s.newRs, canary);
    }
    scaleDownOthers(s, v);
  }

  /**
   * {@code scaleDownOldReplicaSetsForCanary}: older ReplicaSets lose their unavailable replicas at once (oldest
   * first), then, newest first, as many available ones as {@code replicas - maxUnavailable} available pods across
   * the rollout allow. With traffic routing a ReplicaSet still referenced (status or a Service) is skipped; once the
   * update is complete, or when it already has a deadline, an old version is kept for {@code scaleDownDelaySeconds}
   * (at most {@code scaleDownDelayRevisionLimit} of them; with {@code dynamicStableScale} it goes to 0 at once);
   * any other, an intermediate version of an interrupted update, goes to 0.
   */
  private static void scaleDownOthers(RolloutSync s, CanaryView v) {
    List<ReplicaSet> old = new ArrayList<>();
    for (ReplicaSet rs : s.others) {
      if (rs.spec().replicas() > 0) {
        old.add(rs);
      }
    }
    if (old.isEmpty()) {
      return;
    }
    old.sort(RolloutSync.NEWEST_FIRST.reversed());
    for (ReplicaSet rs : old) { // cleanupUnhealthyReplicas
      if (rs.status().availableReplicas() < rs.spec().replicas()) {
        s.scale(s.sets.get(rs.metadata().name()), rs.status().availableReplicas());
      }
    }
    int available = 0;
    for (ReplicaSet rs : s.sets.values()) {
      available += rs.status().availableReplicas();
    }
    int maxScaleDown = available - (s.r.spec().replicas() - CanaryMath.maxUnavailable(v));
    if (maxScaleDown <= 0) {
      return;
    }
    boolean routed = s.r.canary().trafficRouting() != null;
    boolean fullyPromoted = s.b.build().stableRs().equals(s.hash);
    old.sort(RolloutSync.NEWEST_FIRST);
    int[] kept = {0};
    for (ReplicaSet o : old) {
      ReplicaSet rs = s.sets.get(o.metadata().name());
      if (routed && ScaleDownDelays.referenced(s, rs)) {
        continue;
      }
      if (maxScaleDown <= 0) {
        break;
      }
      int replicas = rs.spec().replicas();
      if (replicas == 0) {
        continue;
      }
      int desired = 0;
      if (!routed) {
        desired = Math.max(0, replicas - maxScaleDown);
      } else if (fullyPromoted || ScaleDownDelays.hasDeadline(rs)) {
        desired = s.r.canary().dynamicStableScale() ? 0 : ScaleDownDelays.keepOld(s, rs, kept, replicas);
        rs = s.sets.get(rs.metadata().name()); // keepOld may have annotated it
      }
      if (replicas != desired) {
        s.scale(rs, desired);
        maxScaleDown -= replicas - desired;
      }
    }
  }

  private static boolean isNew(RolloutSync s, ReplicaSet rs) {
    return rs.metadata().name().equals(s.newRs.metadata().name());
  }

  /** {@code AtDesiredReplicaCountsForCanary}: the canary fully available, the stable created, older sets drained. */
  static boolean atDesired(RolloutSync s, CanaryMath.Counts counts, boolean basic) {
    ReplicaSet n = s.newRs;
    if (n.spec().replicas() != counts.canary() || n.status().availableReplicas() != counts.canary()) {
      return false;
    }
    ReplicaSet st = s.stableRs;
    if (st != null && !isNew(s, st) && (st.spec().replicas() != counts.stable()
        || st.status().replicas() != counts.stable())) {
      return false;
    }
    if (basic) {
      for (ReplicaSet rs : s.others) {
        if (rs.status().availableReplicas() != 0) {
          return false;
        }
      }
    }
    return true;
  }

  private static AnalysisPhase stepAnalysis(RolloutSync s, RolloutAnalysis a, RolloutStatus st, int idx) {
    AnalysisRun run;
    try {
      run = AnalysisRuns.ensure(s.store, s.r, a, s.hash, st.analysisRun(),
          s.r.metadata().name() + "-" + s.hash + "-step" + idx);
    } catch (IllegalStateException e) {
      s.abort(e.getMessage());
      return AnalysisPhase.Failed;
    }
    s.b.analysisRun(run.metadata().name());
    s.analysisRunSeen(AnalysisRunEvents.STEP, run);
    return judge(s, run);
  }

  /** Abort on Failed/Error, pause on Inconclusive (a promote passes it as Successful). */
  static AnalysisPhase judge(RolloutSync s, AnalysisRun run) {
    AnalysisPhase phase = run.status().phase();
    switch (phase) {
      case Failed, Error -> s.abort("AnalysisRun " + run.metadata().name() + " " + phase
          + (run.status().message().isEmpty() ? "" : ": " + run.status().message()));
      case Inconclusive -> {
        if (s.b.build().pauseCondition(PauseCondition.INCONCLUSIVE_ANALYSIS) == null && s.promotedByUser()) {
          s.unpause();
          return AnalysisPhase.Successful;
        }
        s.pause(PauseCondition.INCONCLUSIVE_ANALYSIS);
      }
      default -> { }
    }
    return phase;
  }

  private static void background(RolloutSync s, CanaryStrategy c, RolloutStatus st) {
    RolloutAnalysis a = c.analysis();
    if (a == null) {
      return;
    }
    int idx = st.currentStepIndex() == null ? 0 : st.currentStepIndex();
    if (a.startingStep() != null && idx < a.startingStep()) {
      return;
    }
    AnalysisRun run;
    try {
      run = AnalysisRuns.ensure(s.store, s.r, a, s.hash, st.backgroundAnalysisRun(),
          s.r.metadata().name() + "-" + s.hash + "-background");
    } catch (IllegalStateException e) {
      s.abort(e.getMessage());
      return;
    }
    s.b.backgroundAnalysisRun(run.metadata().name());
    s.analysisRunSeen(AnalysisRunEvents.BACKGROUND, run);
    judge(s, run);
  }
}
