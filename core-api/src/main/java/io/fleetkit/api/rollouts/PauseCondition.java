package io.fleetkit.api.rollouts;

import java.time.Instant;
import java.util.Objects;

/**
 * Why and since when a rollout is paused.
 *
 * @param reason {@code CanaryPauseStep}, {@code BlueGreenPause} or {@code InconclusiveAnalysisRun}
 */
public record PauseCondition(String reason, Instant startTime) {
  public static final String CANARY_PAUSE_STEP = "CanaryPauseStep";
  public static final String BLUE_GREEN_PAUSE = "BlueGreenPause";
  public static final String INCONCLUSIVE_ANALYSIS = "InconclusiveAnalysisRun";

  public PauseCondition {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(startTime, "startTime");
  }
}
