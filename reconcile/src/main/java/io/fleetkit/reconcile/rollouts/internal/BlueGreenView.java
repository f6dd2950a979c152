package io.fleetkit.reconcile.rollouts.internal;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the blue-green arithmetic needs of a Rollout's spec and status ({@link BlueGreenMath}).
 *
 * @param replicas spec.replicas
 * @param previewReplicaCount spec.strategy.blueGreen.previewReplicaCount; {@code null} when unset
 * @param activeSelector status.blueGreen.activeSelector: the pod template hash the active Service selects; empty
 *     when none
 * @param currentPodHash status.currentPodHash
 * @param paused spec.paused or any pause condition
 * @param scaleUpPreviewCheckPoint status.blueGreen.scaleUpPreviewCheckPoint: the preview was scaled to full size
 *     after the pause
 */
public record BlueGreenView(int replicas, @Nullable Integer previewReplicaCount, String activeSelector,
    boolean promoteFull, String currentPodHash, boolean paused, boolean scaleUpPreviewCheckPoint) {
  public BlueGreenView {
    Objects.requireNonNull(activeSelector, "activeSelector");
    Objects.requireNonNull(currentPodHash, "currentPodHash");
  }
}
