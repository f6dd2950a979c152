package io.fleetkit.api.rollouts;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A blue-green rollout (Argo Rollouts' {@code BlueGreenStrategy}): the new version comes up beside the old one
 * behind {@code previewService}, and {@code activeService} is switched to it at promotion.
 *
 * @param activeService the Service that serves production traffic; required
 * @param previewService the Service that selects the new version before promotion; {@code null} for none
 * @param autoPromotionEnabled promote by itself once the new version is ready (default true)
 * @param autoPromotionSeconds with auto-promotion, wait this long after ready (default 0)
 * @param scaleDownDelaySeconds keep the old version up this long after promotion (default 30)
 * @param previewReplicaCount run the preview at this size until promotion; {@code null}: full size
 * @param abortScaleDownDelaySeconds keep the new version up this long after an abort (default 30)
 */
public record BlueGreenStrategy(String activeService, @Nullable String previewService, boolean autoPromotionEnabled,
    int autoPromotionSeconds, @Nullable Integer scaleDownDelaySeconds, @Nullable Integer previewReplicaCount,
    @Nullable RolloutAnalysis prePromotionAnalysis, @Nullable RolloutAnalysis postPromotionAnalysis,
    @Nullable Integer abortScaleDownDelaySeconds) {
  public BlueGreenStrategy {
    Objects.requireNonNull(activeService, "activeService");
  }

  /** Active and preview Services, auto-promotion at once, the defaults otherwise. */
  public static BlueGreenStrategy of(String activeService, @Nullable String previewService) {
    return new BlueGreenStrategy(activeService, previewService, true, 0, null, null, null, null, null);
  }

  public BlueGreenStrategy withAutoPromotion(boolean enabled, int seconds) {
    return new BlueGreenStrategy(activeService, previewService, enabled, seconds, scaleDownDelaySeconds,
        previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis, abortScaleDownDelaySeconds);
  }

  public BlueGreenStrategy withPrePromotionAnalysis(@Nullable RolloutAnalysis a) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds,
        scaleDownDelaySeconds, previewReplicaCount, a, postPromotionAnalysis, abortScaleDownDelaySeconds);
  }

  public BlueGreenStrategy withScaleDownDelaySeconds(@Nullable Integer v) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds, v,
        previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis, abortScaleDownDelaySeconds);
  }
}
