package io.fleetkit.reconcile.rollouts.internal;

import io.fleetkit.reconcile.controllers.internal.DeploymentMath.RsView;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The blue-green arithmetic of Argo Rollouts ({@code utils/replicaset/bluegreen.go}, {@code NewRSNewReplicas} in
 * {@code replicaset.go}, the pause rules of {@code rollout/bluegreen.go}) as pure functions. Stateless.
 */
public final class BlueGreenMath {
  /** Argo Rollouts' default {@code scaleDownDelaySeconds} for blue-green. */
  public static final int DEFAULT_SCALE_DOWN_DELAY_SECONDS = ScaleDownDelays.DEFAULT_SCALE_DOWN_DELAY_SECONDS;

  /** The ReplicaSet with a template hash, and the others. */
  public record Split(@Nullable RsView match, List<RsView> others) {
    public Split {
      others = List.copyOf(others);
    }
  }

  private BlueGreenMath() {}

  /**
   * {@code GetReplicaSetByTemplateHash}: the ReplicaSet whose hash is {@code hash} and the others (null entries
   * skipped); with an empty hash, nothing matches and every set is "other".
   */
  public static Split byTemplateHash(List<@Nullable RsView> all, Function<RsView, String> hashOf, String hash) {
    if (hash.isEmpty()) {
      List<RsView> others = new ArrayList<>();
      for (RsView rs : all) {
        if (rs != null) {
          others.add(rs);
        }
      }
      return new Split(null, others);
    }
    RsView match = null;
    List<RsView> others = new ArrayList<>();
    for (RsView rs : all) {
      if (rs == null) {
        continue;
      }
      if (hash.equals(hashOf.apply(rs))) {
        match = rs;
      } else {
        others.add(rs);
      }
    }
    return new Split(match, others);
  }

  /**
   * {@code NewRSNewReplicas} for blue-green: the full replica count, or {@code previewReplicaCount} while the new
   * ReplicaSet is only the preview (not active, not fully promoted, and either a new update or still paused before
   * the preview scale-up checkpoint).
   */
  public static int newRsReplicas(BlueGreenView v, List<@Nullable RsView> all, RsView newRs,
      Function<RsView, String> hashOf) {
    Integer preview = v.previewReplicaCount();
    if (preview == null) {
      return v.replicas();
    }
    RsView active = byTemplateHash(all, hashOf, v.activeSelector()).match();
    if (active == null || active.name().equals(newRs.name()) || v.promoteFull()) {
      return v.replicas();
    }
    if (!hashOf.apply(newRs).equals(v.currentPodHash())) {
      return preview;
    }
    if (!v.paused() && v.scaleUpPreviewCheckPoint()) {
      return v.replicas();
    }
    return preview;
  }

  /** {@code ReadyForPause}: the new ReplicaSet has its desired count, all available. */
  public static boolean readyForPause(BlueGreenView v, @Nullable RsView newRs, List<@Nullable RsView> all,
      Function<RsView, String> hashOf) {
    if (newRs == null) {
      return false;
    }
    int desired = newRsReplicas(v, all, newRs, hashOf);
    return newRs.replicas() == desired && newRs.available() == desired;
  }

  /**
   * Whether a blue-green update pauses before promotion once the new ReplicaSet is ready: when auto-promotion is
   * off or delayed ({@code autoPromotionSeconds > 0}); never on the first deploy (no active selector) or when the
   * active selector already is the new hash.
   */
  public static boolean needsPause(boolean autoPromotionEnabled, int autoPromotionSeconds, String activeSelector,
      String newHash) {
    if (activeSelector.isEmpty() || activeSelector.equals(newHash)) {
      return false;
    }
    return !autoPromotionEnabled || autoPromotionSeconds > 0;
  }

  /**
   * Whether a blue-green pause that started at {@code pauseStart} has completed by itself at {@code now}: with
   * auto-promotion on, after {@code autoPromotionSeconds}; with it off, never (a promote ends it).
   */
  public static boolean pauseCompleted(boolean autoPromotionEnabled, int autoPromotionSeconds, Instant pauseStart,
      Instant now) {
    Objects.requireNonNull(pauseStart, "pauseStart");
    if (!autoPromotionEnabled) {
      return false;
    }
    return !now.isBefore(pauseStart.plus(Duration.ofSeconds(autoPromotionSeconds)));
  }
}
