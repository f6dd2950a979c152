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
    if (!aborted) {
      BlueGreenView v = new BlueGreenView(s.r.spec().replicas(), bg.previewReplicaCount(), st.activeSelector(),
          st.promoteFull(), s.hash, s.r.spec().paused() || !st.pauseConditions().isEmpty(),
          st.scaleUpPreviewCheckPoint());
      int desired = BlueGreenMath.newRsReplicas(v, all, RolloutSync.view(s.newRs), rs -> hashes.get(rs.name()));
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
      if (!st.stableRs().equals(s.hash)) {
        s.scale(s.newRs, 0);
      }
      st = s.b.build();
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
    if (CanarySteps.judge(s, run) == AnalysisPhase.Successful) {
      s.b.stableRs(s.hash).backgroundAnalysisRun("");
    }
  }

  /** Versions neither active, new nor stable go to 0 once their scale-down deadline has passed. */
  private static void scaleDownOld(RolloutSync s, BlueGreenStrategy bg, RolloutStatus st) {
    int delay = bg.scaleDownDelaySeconds() != null ? bg.scaleDownDelaySeconds()
        : BlueGreenMath.DEFAULT_SCALE_DOWN_DELAY_SECONDS;
    for (ReplicaSet rs : new ArrayList<>(s.sets.values())) {
      String h = RolloutSync.hashOf(rs);
      if (h.equals(s.hash) || h.equals(st.activeSelector()) || h.equals(st.stableRs()) || rs.spec().replicas() == 0) {
        continue;
      }
      String at = rs.metadata().annotations().get(RolloutSync.SCALE_DOWN_DEADLINE);
      Instant deadline;
      if (at == null) {
        deadline = s.now.plusSeconds(delay);
        ReplicaSet latest = s.store.require(ReplicaSet.class, s.ns, rs.metadata().name());
        s.sets.put(rs.metadata().name(), s.store.update(latest.withMetadata(latest.metadata().toBuilder()
            .annotation(RolloutSync.SCALE_DOWN_DEADLINE, deadline.toString()).build())));
      } else {
        deadline = Instant.parse(at);
      }
      if (s.now.isBefore(deadline)) {
        s.wakeAt(deadline);
      } else {
        s.scale(s.sets.get(rs.metadata().name()), 0);
      }
    }
  }
}
