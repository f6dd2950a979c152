package io.fleetkit.queueing.backfill;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What one backfill pass decided.
 *
 * @param startNow the jobs to start now, in the order they were placed (priority order)
 * @param expectedStart every job that starts now or holds a reservation, with its (expected) start time
 * @param pendingReasons jobs that do not start now, with Slurm's reason: {@code Resources} (reserved for later),
 *     {@code PartitionTimeLimit}, {@code PartitionNodeLimit}, {@code BackfillWindow} (no start within bf_window, so no
 *     reservation) or {@code NotTested} (beyond bf_max_job_test)
 */
public record BackfillPlan(List<String> startNow, Map<String, Instant> expectedStart, Map<String, String> pendingReasons) {
  public BackfillPlan {
    startNow = List.copyOf(Objects.requireNonNull(startNow, "startNow"));
    expectedStart = Map.copyOf(Objects.requireNonNull(expectedStart, "expectedStart"));
    pendingReasons = Map.copyOf(Objects.requireNonNull(pendingReasons, "pendingReasons"));
  }
}
