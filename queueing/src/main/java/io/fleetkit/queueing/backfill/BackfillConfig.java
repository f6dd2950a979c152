package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.util.Objects;

/**
 * Backfill settings ({@code SchedulerParameters} of {@code sched/backfill}).
 *
 * @param window {@code bf_window} (default 1 day): how far ahead reservations are made; a job that cannot start
 *     within it gets no reservation (so it should be at least the longest time limit)
 * @param resolution {@code bf_resolution} (default 60 s): expected end times and time limits are rounded up to it
 * @param maxJobTest {@code bf_max_job_test} (default 500): how many pending jobs are considered, in priority order
 */
public record BackfillConfig(Duration window, Duration resolution, int maxJobTest) {
  public static final BackfillConfig DEFAULT = new BackfillConfig(Duration.ofDays(1), Duration.ofSeconds(60), 500);

  public BackfillConfig {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(resolution, "resolution");
    if (window.isNegative() || window.isZero() || resolution.getSeconds() < 1 || maxJobTest < 1) {
      throw new IllegalArgumentException("backfill: bf_window " + window + ", bf_resolution " + resolution
          + " and bf_max_job_test " + maxJobTest + " must be positive (resolution at least 1s)");
    }
  }

  public BackfillConfig withResolution(Duration resolution) {
    return new BackfillConfig(window, resolution, maxJobTest);
  }

  public BackfillConfig withWindow(Duration window) {
    return new BackfillConfig(window, resolution, maxJobTest);
  }
}
