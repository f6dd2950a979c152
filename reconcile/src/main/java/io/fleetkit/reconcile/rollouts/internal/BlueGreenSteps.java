package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.rollouts.AnalysisPhase;
import io.fleetkit.api.rollouts.AnalysisRun;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.PauseCondition;
import io.fleetkit.api.rollouts.RolloutAnalysis;
import io.fleetkit.api.rollouts.RolloutStatus;
import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A blue-green rollout's sync (Argo Rollouts' {@code rollout/bluegreen.go}): bring the new version up behind the
 * preview Service (at {@code previewReplicaCount} if set), run the pre-promotion analysis, pause when
 * auto-promotion is off or delayed, scale a preview up to full size, then switch the active Service once the new
 * version is saturated (all {@code replicas} available); run the post-promotion analysis before the new
 * version becomes stable; scale old versions down after {@code scaleDownDelaySeconds}. A failed analysis aborts:
 * the active Service stays on (or returns to) the stable version and the new one is scaled to 0. Stateless.
 */
final class BlueGreenSteps {
  private BlueGreenSteps() {}

  static void sync(RolloutSync s) {
    BlueGreenStrategy bg = s.r.blueGreen();
    RolloutStatus st = s.b.build();
    if (st.activeSelector().isEmpty()) {
      s.b.activeSelector(s.hash).stableRs(s.hash);
      st = s.b.build();
    }
    boolean aborted = st.abort() || s.abortReason != null;
    Map<String, String> hashes = new HashMap<>();
    List<RsView> all = new ArrayList<>();
    for (ReplicaSet rs : s.sets.values()) {
      hashes.put(rs.metadata().name(), RolloutSync.hashOf(rs));
      all.add(RolloutSync.view(rs));
    }
    ScaleDownDelays.removeDeadlines(s);
    BlueGreenView v = new BlueGreenView(s.r.spec().replicas(), bg.previewReplicaCount(), st.activeSelector(),
        st.promoteFull(), s.hash, s.r.spec().paused() || !st.pauseConditions().isEmpty(),
        st.scaleUpPreviewCheckPoint());
    int desired = BlueGreenMath.newRsReplicas(v, all, RolloutSync.view(s.newRs), rs -> hashes.get(rs.name()));
    if (!aborted) {
      s.scale(s.newRs, desired);
      if (!st.activeSelector().equals(s.hash) && !s.r.spec().paused()
          && BlueGreenMath.readyForPause(v, RolloutSync.view(s.newRs), all, rs -> hashes.get(rs.name()))
          && (st.scaleUpPreviewCheckPoint() || (prePromotionDone(s, bg, st) && pauseDone(s, bg, st)))) {
        Integer preview = bg.previewReplicaCount();
        if (preview != null && !st.scaleUpPreviewCheckPoint()
            && s.newRs.status().availableReplicas() == preview) {
          // calculateScaleUpPreviewCheckPoint: analysis and pause done, the preview scales up to full size
          s.b.scaleUpPreviewCheckPoint(true);
          s.scale(s.newRs, s.r.spec().replicas());
        }
        if (saturated(s)) {
          promote(s, bg, st);
        }
      }
      st = s.b.build();
      if (st.activeSelector().equals(s.hash) && !st.stableRs().equals(s.hash)) {
        postPromotion(s, bg, st);
      }
    }
    st = s.b.build();
    if (st.abort()) {
      s.b.activeSelector(st.stableRs());
      st = s.b.build();
      for (ReplicaSet rs : new ArrayList<>(s.sets.values())) {
        if (RolloutSync.hashOf(rs).equals(st.activeSelector()) && !RolloutSync.hashOf(rs).equals(s.hash)) {
          s.scale(rs, s.r.spec().replicas()); // reconcileBlueGreenStableReplicaSet, before the new one
        }
      }
      if (!st.stableRs().equals(s.hash)) {
        // reconcileNewReplicaSet: kept for abortScaleDownDelaySeconds (0: for good), then scaled to 0
        Integer n = ScaleDownDelays.newReplicaSetCount(s, desired);
        if (n != null) {
          s.scale(s.newRs, n);
        }
      }
    }
    for (ReplicaSet rs : new ArrayList<>(s.sets.values())) {
      String h = RolloutSync.hashOf(rs);
      if (h.equals(st.activeSelector()) && !h.equals(s.hash)) {
        s.scale(rs, s.r.spec().replicas());
      }
    }
    s.selectVersion(bg.activeService(), st.activeSelector());
    s.selectVersion(bg.previewService(), s.hash);
    scaleDownOld(s, bg, st);
    s.b.canaryWeight(st.activeSelector().equals(s.hash) && !st.stableRs().equals(s.hash) ? 100 : 0);
  }

  /**
   * {@code IsSaturated}: the active Service is switched only to a new ReplicaSet at the full replica count, all
   * available.
   */
  private static boolean saturated(RolloutSync s) {
    int replicas = s.r.spec().replicas();
    return s.newRs.spec().replicas() == replicas && s.newRs.status().availableReplicas() == replicas;
  }

  private static boolean prePromotionDone(RolloutSync s, BlueGreenStrategy bg, RolloutStatus st) {
    RolloutAnalysis a = bg.prePromotionAnalysis();
    if (a == null) {
      return true;
    }
    AnalysisRun run;
    try {
      run = AnalysisRuns.ensure(s.store, s.r, a, s.hash, st.analysisRun(), s.r.metadata().name() + "-" + s.hash
          + "-pre");
    } catch (IllegalStateException e) {
      s.abort(e.getMessage());
      return false;
    }
    s.b.analysisRun(run.metadata().name());
    s.analysisRunSeen(AnalysisRunEvents.PRE_PROMOTION, run);
    return CanarySteps.judge(s, run) == AnalysisPhase.Successful;
  }

  private static boolean pauseDone(RolloutSync s, BlueGreenStrategy bg, RolloutStatus st) {
    if (!BlueGreenMath.needsPause(bg.autoPromotionEnabled(), bg.autoPromotionSeconds(), st.activeSelector(),
        s.hash)) {
      return true;
    }
    PauseCondition cond = st.pauseCondition(PauseCondition.BLUE_GREEN_PAUSE);
    if (cond == null && s.promotedByUser()) {
      s.unpause();
      return true;
    }
    Instant start = s.pause(PauseCondition.BLUE_GREEN_PAUSE);
    if (BlueGreenMath.pauseCompleted(bg.autoPromotionEnabled(), bg.autoPromotionSeconds(), start, s.now)) {
      s.unpause();
      return true;
    }
    if (bg.autoPromotionEnabled()) {
      s.wakeAt(start.plusSeconds(bg.autoPromotionSeconds()));
    }
    return false;
  }

  private static void promote(RolloutSync s, BlueGreenStrategy bg, RolloutStatus st) {
    s.b.activeSelector(s.hash).analysisRun("").scaleUpPreviewCheckPoint(false);
    if (bg.postPromotionAnalysis() == null) {
      s.b.stableRs(s.hash);
    }
  }

  private static void postPromotion(RolloutSync s, BlueGreenStrategy bg, RolloutStatus st) {
    RolloutAnalysis a = bg.postPromotionAnalysis();
    if (a == null) {
      s.b.stableRs(s.hash);
      return;
    }
    AnalysisRun run;
    try {
      run = AnalysisRuns.ensure(s.store, s.r, a, s.hash, st.backgroundAnalysisRun(), s.r.metadata().name() + "-"
          + s.hash + "-post");
    } catch (IllegalStateException e) {
      s.abort(e.getMessage());
      return;
    }
    s.b.backgroundAnalysisRun(run.metadata().name());
    s.analysisRunSeen(AnalysisRunEvents.POST_PROMOTION, run);
    if (CanarySteps.judge(s, run) == AnalysisPhase.Successful) {
      s.b.stableRs(s.hash).backgroundAnalysisRun("");
    }
  }

  /**
   * {@code scaleDownOldReplicaSetsForBlueGreen}: nothing while paused on an Inconclusive analysis, nor while a
   * post-promotion analysis runs without an explicit {@code scaleDownDelaySeconds}; else every old version (newest
   * first) neither referenced by the status or a Service is kept for {@code scaleDownDelaySeconds} at
   * {@code replicas}, at most {@code scaleDownDelayRevisionLimit} of them, and scaled to 0 after its deadline.
   */
  private static void scaleDownOld(RolloutSync s, BlueGreenStrategy bg, RolloutStatus st) {
    if (st.pauseCondition(PauseCondition.INCONCLUSIVE_ANALYSIS) != null) {
      return;
    }
    if (bg.postPromotionAnalysis() != null && bg.scaleDownDelaySeconds() == null && !st.stableRs().equals(s.hash)) {
      return; // the post-promotion analysis of the new version has not succeeded yet
    }
    List<ReplicaSet> old = new ArrayList<>();
    for (ReplicaSet rs : s.sets.values()) {
      if (!rs.metadata().name().equals(s.newRs.metadata().name())
          && (s.stableRs == null || !rs.metadata().name().equals(s.stableRs.metadata().name()))) {
        old.add(rs);
      }
    }
    old.sort(RolloutSync.NEWEST_FIRST);
    int[] kept = {0};
    for (ReplicaSet rs : old) {
      ReplicaSet cur = s.sets.get(rs.metadata().name());
      if (ScaleDownDelays.referenced(s, cur) || cur.spec().replicas() == 0) {
        continue;
      }
      int keep = ScaleDownDelays.keepOld(s, cur, kept, s.r.spec().replicas());
      s.scale(s.sets.get(cur.metadata().name()), keep);
    }
  }
}
