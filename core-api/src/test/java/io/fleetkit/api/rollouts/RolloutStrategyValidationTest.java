package io.fleetkit.api.rollouts;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.IntOrPercent;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The scale-down and ephemeral metadata fields of a Rollout's strategy. Cases of argo-rollouts
 * {@code pkg/apis/rollouts/validation/validation_test.go} (commit 9f8d111d): TestValidateRolloutStrategyBlueGreen (the
 * revision limit above {@code revisionHistoryLimit}), TestCanaryScaleDownDelaySeconds (2 subtests),
 * TestCanaryDynamicStableScale (2 subtests), with upstream's messages at the strategy's own path; and FleetKit's:
 * negative values, ephemeral labels and annotations under the API server's rules.
 */
final class RolloutStrategyValidationTest {
  private static Rollout.Builder base() {
    return Rollout.builder().name("foo").matchLabels(Map.of("key", "value"))
        .podSpec(PodSpec.builder().container("image-name", "foo", ResourceList.EMPTY).build());
  }

  private static CanaryStrategy canary(boolean routed) {
    return new CanaryStrategy(List.of(), IntOrPercent.TWENTY_FIVE_PERCENT, IntOrPercent.TWENTY_FIVE_PERCENT, null,
        "stable", "canary", routed ? new TrafficRouting("route") : null, false, null, null);
  }

  private static List<String> errors(Rollout.Builder b) {
    ValidationException e = catchThrowableOfType(ValidationException.class, b::build);
    assertThat(e).as("refused").isNotNull();
    return e.violations().stream().map(v -> v.field() + ": " + v.rule()).toList();
  }

  @Test
  void blueGreen_revisionLimitAboveHistoryLimit_refused() {
    assertThat(errors(base().blueGreen(BlueGreenStrategy.of("service-name", "service-name")
        .withScaleDownDelayRevisionLimit(RolloutSpec.DEFAULT_REVISION_HISTORY_LIMIT + 1)))).containsExactly(
        "spec.strategy.blueGreen.previewService: This rollout uses the same service for the active and preview "
            + "services, but two different services are required.",
        "spec.strategy.blueGreen.scaleDownDelayRevisionLimit: This rollout's revision history limit can not be "
            + "smaller than the rollout's scale down limit");
    assertThat(base().blueGreen(BlueGreenStrategy.of("a", "b").withScaleDownDelayRevisionLimit(10)).build()
        .blueGreen().scaleDownDelayRevisionLimit()).isEqualTo(10);
  }

  @Test
  void canary_scaleDownDelaySeconds_onlyWithTrafficRouting() {
    assertThat(errors(base().canary(canary(false).withScaleDownDelay(60, null)))).containsExactly(
        "spec.strategy.canary.scaleDownDelaySeconds: Canary scaleDownDelaySeconds can only be used with traffic "
            + "routing");
    assertThat(base().canary(canary(true).withScaleDownDelay(60, null)).build().canary().scaleDownDelaySeconds())
        .isEqualTo(60);
  }

  @Test
  void canary_dynamicStableScale_basicOrWithScaleDownDelay_refused() {
    CanaryStrategy basic = canary(false);
    CanaryStrategy dynamicBasic = new CanaryStrategy(basic.steps(), basic.maxSurge(), basic.maxUnavailable(), null,
        "stable", "canary", null, true, null, null);
    assertThat(errors(base().canary(dynamicBasic))).containsExactly(
        "spec.strategy.canary.dynamicStableScale: Canary dynamicStableScale can only be used with traffic routing");
    CanaryStrategy dynamicRouted = new CanaryStrategy(basic.steps(), basic.maxSurge(), basic.maxUnavailable(), null,
        "stable", "canary", new TrafficRouting("route"), true, null, null).withScaleDownDelay(60, null);
    assertThat(errors(base().canary(dynamicRouted))).containsExactly(
        "spec.strategy.canary.dynamicStableScale: Canary dynamicStableScale cannot be used with "
            + "scaleDownDelaySeconds");
  }

  @Test
  void negativeDelaysAndLimits_refused() {
    assertThat(errors(base().canary(canary(true).withScaleDownDelay(-1, -2).withAbortScaleDownDelaySeconds(-3))))
        .containsExactlyInAnyOrder(
            "spec.strategy.canary.scaleDownDelaySeconds: must be greater than or equal to 0",
            "spec.strategy.canary.scaleDownDelayRevisionLimit: must be greater than or equal to 0",
            "spec.strategy.canary.abortScaleDownDelaySeconds: must be greater than or equal to 0");
  }

  @Test
  void ephemeralMetadata_labelsAndAnnotationsUnderTheApiServersRules() {
    PodTemplateMetadata bad = new PodTemplateMetadata(Map.of("bad key!", "x"), Map.of("-no", "y"));
    List<String> errs = errors(base().canary(canary(false).withEphemeralMetadata(bad, null)));
    assertThat(errs).anyMatch(e -> e.startsWith("spec.strategy.canary.canaryMetadata.labels"))
        .anyMatch(e -> e.startsWith("spec.strategy.canary.canaryMetadata.annotations"));
    assertThat(errors(base().blueGreen(BlueGreenStrategy.of("a", "b").withEphemeralMetadata(null,
        PodTemplateMetadata.ofLabels(Map.of("role", "not a value!"))))))
        .anyMatch(e -> e.startsWith("spec.strategy.blueGreen.previewMetadata.labels"));
    PodTemplateMetadata good = new PodTemplateMetadata(Map.of("role", "canary"), Map.of("team.io/owner", "web"));
    assertThat(base().canary(canary(false).withEphemeralMetadata(good, good)).build().canary().canaryMetadata())
        .isEqualTo(good);
  }
}
