package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.rollouts.BlueGreenStrategy;
import io.fleetkit.api.rollouts.CanaryStep;
import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
import io.fleetkit.api.rollouts.TrafficRouting;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The scale-down deadline helpers and defaults, ported from argo-rollouts (commit 9f8d111d):
 * {@code utils/replicaset/replicaset_test.go} TestHasScaleDownDeadline (5 blocks) and
 * TestGetTimeRemainingBeforeScaleDownDeadline (3 blocks); {@code utils/defaults/defaults_test.go}
 * TestGetScaleDownDelaySecondsOrDefault (4 of 5 blocks) and TestGetAbortScaleDownDelaySecondsOrDefault (7 of 8
 * blocks; "wasSet" is whether the strategy holds a value). The blocks of a rollout without a strategy are not
 * ported: a Rollout always has one here.
 */
final class ScaleDownDelaysTest {
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  private static ReplicaSet rs(@Nullable String deadline) {
    ObjectMeta.Builder m = ObjectMeta.builder().namespace("default").name("foo-abc");
    if (deadline != null) {
      m.annotation(ScaleDownDelays.SCALE_DOWN_DEADLINE, deadline);
    }
    return ReplicaSet.builder().metadata(m.build()).replicas(1).matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build()).build();
  }

  private static Rollout blueGreen(BlueGreenStrategy bg) {
    return Rollout.builder().name("foo").matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build()).blueGreen(bg).build();
  }

  private static Rollout canary(CanaryStrategy c) {
    return Rollout.builder().name("foo").matchLabels(Map.of("app", "web"))
        .podSpec(PodSpec.builder().container("app", "web:1", ResourceList.EMPTY).build()).canary(c).build();
  }

  private static CanaryStrategy routed() {
    return new CanaryStrategy(java.util.List.of(new CanaryStep.SetWeight(10)),
        io.fleetkit.api.meta.IntOrPercent.TWENTY_FIVE_PERCENT, io.fleetkit.api.meta.IntOrPercent.TWENTY_FIVE_PERCENT,
        null, "stable", "canary", new TrafficRouting("route"), false, null, null);
  }

  @Test
  void hasDeadline_TestHasScaleDownDeadline() {
    assertThat(ScaleDownDelays.hasDeadline(null)).isFalse();
    assertThat(ScaleDownDelays.hasDeadline(rs(null))).isFalse();
    assertThat(ScaleDownDelays.hasDeadline(rs(""))).isFalse();
    assertThat(ScaleDownDelays.hasDeadline(rs("asdf"))).isTrue();
    assertThat(ScaleDownDelays.hasDeadline(rs("2020-10-13T23:04:51Z"))).isTrue();
  }

  @Test
  void remaining_TestGetTimeRemainingBeforeScaleDownDeadline() {
    assertThat(ScaleDownDelays.remaining(rs(null), NOW)).isNull();
    assertThat(ScaleDownDelays.remaining(rs(ScaleDownDelays.format(NOW, -600)), NOW)).isNull();
    assertThat(ScaleDownDelays.remaining(rs(ScaleDownDelays.format(NOW, 600)), NOW))
        .isEqualTo(Duration.ofSeconds(600));
  }

  @Test
  void remaining_unreadableDeadline_namesTheReplicaSet() {
    assertThatThrownBy(() -> ScaleDownDelays.remaining(rs("Abcd123"), NOW))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unable to read scaleDownAt label on rs 'foo-abc'");
  }

  @Test
  void format_rfc3339InWholeSeconds() {
    assertThat(ScaleDownDelays.format(NOW.plusMillis(700), 30)).isEqualTo("2026-03-01T10:00:30Z");
  }

  @Test
  void scaleDownDelaySeconds_TestGetScaleDownDelaySecondsOrDefault() {
    assertThat(ScaleDownDelays.scaleDownDelaySeconds(blueGreen(BlueGreenStrategy.of("active", null)
        .withScaleDownDelaySeconds(60)))).isEqualTo(60);
    assertThat(ScaleDownDelays.scaleDownDelaySeconds(blueGreen(BlueGreenStrategy.of("active", null))))
        .isEqualTo(ScaleDownDelays.DEFAULT_SCALE_DOWN_DELAY_SECONDS);
    // a basic canary may not set it (validation); without traffic routing there is no delay
    assertThat(ScaleDownDelays.scaleDownDelaySeconds(canary(CanaryStrategy.of(new CanaryStep.SetWeight(10)))))
        .isZero();
    assertThat(ScaleDownDelays.scaleDownDelaySeconds(canary(routed().withScaleDownDelay(60, null)))).isEqualTo(60);
  }

  @Test
  void abortDelaySeconds_TestGetAbortScaleDownDelaySecondsOrDefault() {
    BlueGreenStrategy bg = BlueGreenStrategy.of("active", null);
    Rollout bg60 = blueGreen(bg.withAbortScaleDownDelaySeconds(60));
    assertThat(ScaleDownDelays.abortDelaySeconds(bg60)).isEqualTo(60);
    assertThat(bg60.blueGreen().abortScaleDownDelaySeconds()).as("wasSet").isNotNull();
    Rollout bg0 = blueGreen(bg.withAbortScaleDownDelaySeconds(0));
    assertThat(ScaleDownDelays.abortDelaySeconds(bg0)).as("don't scale down preview").isNull();
    assertThat(bg0.blueGreen().abortScaleDownDelaySeconds()).as("wasSet").isNotNull();
    Rollout bgDefault = blueGreen(bg);
    assertThat(ScaleDownDelays.abortDelaySeconds(bgDefault)).isEqualTo(30);
    assertThat(bgDefault.blueGreen().abortScaleDownDelaySeconds()).as("wasSet").isNull();
    Rollout c60 = canary(routed().withAbortScaleDownDelaySeconds(60));
    assertThat(ScaleDownDelays.abortDelaySeconds(c60)).isEqualTo(60);
    Rollout c0 = canary(routed().withAbortScaleDownDelaySeconds(0));
    assertThat(ScaleDownDelays.abortDelaySeconds(c0)).as("don't scale down canary").isNull();
    assertThat(ScaleDownDelays.hasExplicitAbortDelay(c0.canary())).isFalse();
    assertThat(ScaleDownDelays.hasExplicitAbortDelay(c60.canary())).isTrue();
    assertThat(ScaleDownDelays.abortDelaySeconds(canary(routed()))).isEqualTo(30);
    assertThat(ScaleDownDelays.abortDelaySeconds(canary(CanaryStrategy.of()))).as("basic canary").isZero();
  }

  @Test
  void revisionLimit_unsetMeansNoLimit() {
    assertThat(ScaleDownDelays.revisionLimit(blueGreen(BlueGreenStrategy.of("active", null))))
        .isEqualTo(Integer.MAX_VALUE);
    assertThat(ScaleDownDelays.revisionLimit(blueGreen(BlueGreenStrategy.of("active", null)
        .withScaleDownDelayRevisionLimit(1)))).isEqualTo(1);
    assertThat(ScaleDownDelays.revisionLimit(canary(routed().withScaleDownDelay(null, 2)))).isEqualTo(2);
  }
}
