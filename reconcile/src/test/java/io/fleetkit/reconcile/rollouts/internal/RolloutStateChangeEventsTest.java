package io.fleetkit.reconcile.rollouts.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.rollouts.PauseCondition;
import io.fleetkit.api.rollouts.RolloutStatus;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * argo-rollouts {@code rollout/sync_test.go} (commit 9f8d111d) TestSendStateChangeEvents, its three cases as data:
 * the event reason {@code sendStateChangeEvents} records between two statuses (none for an abort, which clears the
 * pause conditions too). 3 of 3.
 */
final class RolloutStateChangeEventsTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  static Stream<Arguments> cases() {
    RolloutStatus paused = RolloutStatus.builder()
        .pauseConditions(List.of(new PauseCondition(PauseCondition.BLUE_GREEN_PAUSE, NOW))).build();
    RolloutStatus running = RolloutStatus.builder().build();
    RolloutStatus aborted = RolloutStatus.builder().abortedAt(NOW).build();
    return Stream.of(
        Arguments.of("pause conditions cleared: resumed", paused, running, RolloutEvents.RESUMED),
        Arguments.of("pause condition added: paused", running, paused, RolloutEvents.PAUSED),
        Arguments.of("cleared by an abort: nothing", paused, aborted, null));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void stateChange_betweenStatuses_argoReason(String name, RolloutStatus prev, RolloutStatus next,
      @Nullable String expected) {
    assertThat(RolloutEvents.stateChange(prev, next)).isEqualTo(expected);
  }
}
