package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.meta.IntOrPercent;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * argo-rollouts {@code rollout/canary_test.go} (commit 9f8d111d) TestIsDynamicallyRollingBackToStable, its 6 cases
 * as data (a canary of 10 replicas; the desired ReplicaSet has 1 available pod unless the case says otherwise). The
 * last case's name says "fully available", but upstream leaves its ReplicaSet at 1 available pod of 10, so it
 * expects true; ported as upstream runs it.
 */
final class DynamicRollbackToStableTest {
  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of("desired RS != stable RS", "abc123", "def456", true, true, null, "", 1, false),
        Arguments.of("not using traffic routing", "abc123", "abc123", false, true, null, "", 1, false),
        Arguments.of("not using dynamicStableScaling", "abc123", "abc123", true, false, null, "", 1, false),
        Arguments.of("weighted selector == desired RS", "abc123", "abc123", true, true, "abc123", "abc123", 1, false),
        Arguments.of("weighted selector != desired RS, desired not fully available", "abc123", "abc123", true, true,
            "def456", "abc123", 1, true),
        Arguments.of("weighted selector != desired RS, desired RS is fully available", "abc123", "abc123", true,
            true, "def456", "abc123", 1, true));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void dynamicallyRollingBackToStable_TestIsDynamicallyRollingBackToStable(String name, String current,
      String stable, boolean trafficRouting, boolean dynamic, @Nullable String weighted, String rsHash,
      int available, boolean expected) {
    CanaryView v = new CanaryView(10, List.of(), null, IntOrPercent.of(0), IntOrPercent.of(1), trafficRouting,
        dynamic, null, null, false, false, stable, current);
    assertThat(CanaryMath.dynamicallyRollingBackToStable(v, weighted, rsHash, available)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void dynamicallyRollingBackToStable_desiredFullyAvailable_false(String name, String current, String stable,
      boolean trafficRouting, boolean dynamic, @Nullable String weighted, String rsHash, int available,
      boolean expected) {
    CanaryView v = new CanaryView(10, List.of(), null, IntOrPercent.of(0), IntOrPercent.of(1), trafficRouting,
        dynamic, null, null, false, false, stable, current);
    assertThat(CanaryMath.dynamicallyRollingBackToStable(v, weighted, rsHash, 10)).as("10 of 10 available").isFalse();
  }
}
