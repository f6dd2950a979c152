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
 * @param abortScaleDownDelaySeconds keep the new version up this long after an abort (default 30; 0 keeps it up)
 * @param scaleDownDelayRevisionLimit how many old versions may stay up during their scale-down delay
 *     ({@code null}: no limit); at most {@code revisionHistoryLimit}
 * @param activeMetadata labels and annotations put on the active version's pods; {@code null} for none
 * @param previewMetadata labels and annotations put on the preview version's pods; {@code null} for none
 */
public record BlueGreenStrategy(String activeService, @Nullable String previewService, boolean autoPromotionEnabled,
    int autoPromotionSeconds, @Nullable Integer scaleDownDelaySeconds, @Nullable Integer previewReplicaCount,
    @Nullable RolloutAnalysis prePromotionAnalysis, @Nullable RolloutAnalysis postPromotionAnalysis,
    @Nullable Integer abortScaleDownDelaySeconds, @Nullable Integer scaleDownDelayRevisionLimit,
    @Nullable PodTemplateMetadata activeMetadata, @Nullable PodTemplateMetadata previewMetadata) {
  public BlueGreenStrategy {
    Objects.requireNonNull(activeService, "activeService");
  }

  /** Without a revision limit or ephemeral metadata. */
  public BlueGreenStrategy(String activeService, @Nullable String previewService, boolean autoPromotionEnabled,
      int autoPromotionSeconds, @Nullable Integer scaleDownDelaySeconds, @Nullable Integer previewReplicaCount,
      @Nullable RolloutAnalysis prePromotionAnalysis, @Nullable RolloutAnalysis postPromotionAnalysis,
      @Nullable Integer abortScaleDownDelaySeconds) {
    this(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds, scaleDownDelaySeconds,
        previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis, abortScaleDownDelaySeconds, null, null,
        null);
  }

  /** Active and preview Services, auto-promotion at once, the defaults otherwise. */
  public static BlueGreenStrategy of(String activeService, @Nullable String previewService) {
    return new BlueGreenStrategy(activeService, previewService, true, 0, null, null, null, null, null);
  }

  public BlueGreenStrategy withAutoPromotion(boolean enabled, int seconds) {
    return new BlueGreenStrategy(activeService, previewService, enabled, seconds, scaleDownDelaySeconds,
        previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis, abortScaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, activeMetadata, previewMetadata);
  }

  public BlueGreenStrategy withPrePromotionAnalysis(@Nullable RolloutAnalysis a) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds,
        scaleDownDelaySeconds, previewReplicaCount, a, postPromotionAnalysis, abortScaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, activeMetadata, previewMetadata);
  }

  public BlueGreenStrategy withPostPromotionAnalysis(@Nullable RolloutAnalysis a) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds,
        scaleDownDelaySeconds, previewReplicaCount, prePromotionAnalysis, a, abortScaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, activeMetadata, previewMetadata);
  }

  public BlueGreenStrategy withScaleDownDelaySeconds(@Nullable Integer v) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds, v,
        previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis, abortScaleDownDelaySeconds,
        scaleDownDelayRevisionLimit, activeMetadata, previewMetadata);
  }

  /** {@code abortScaleDownDelaySeconds}: {@code null} for the default, 0 to keep the new version up after an abort. */
  public BlueGreenStrategy withAbortScaleDownDelaySeconds(@Nullable Integer v) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds,
        scaleDownDelaySeconds, previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis, v,
        scaleDownDelayRevisionLimit, activeMetadata, previewMetadata);
  }

  public BlueGreenStrategy withScaleDownDelayRevisionLimit(@Nullable Integer v) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds,
        scaleDownDelaySeconds, previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis,
        abortScaleDownDelaySeconds, v, activeMetadata, previewMetadata);
  }

  /** {@code activeMetadata} and {@code previewMetadata} ({@code null} for none). */
  public BlueGreenStrategy withEphemeralMetadata(@Nullable PodTemplateMetadata active,
      @Nullable PodTemplateMetadata preview) {
    return new BlueGreenStrategy(activeService, previewService, autoPromotionEnabled, autoPromotionSeconds,
        scaleDownDelaySeconds, previewReplicaCount, prePromotionAnalysis, postPromotionAnalysis,
        abortScaleDownDelaySeconds, scaleDownDelayRevisionLimit, active, preview);
  }
}
