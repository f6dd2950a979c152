package io.fleetkit.queueing.backfill;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A running job as backfill sees it: its nodes are busy until {@code start + timeLimit} (Slurm kills a job at its
 * time limit, so the expected end is a promise).
 *
 * @param id the job id
 * @param nodes the nodes it holds
 * @param start when it started
 * @param timeLimit its time limit; {@code null} means unlimited (its nodes never free up in the plan)
 */
public record RunningJob(String id, int nodes, Instant start, @Nullable Duration timeLimit) {
  public RunningJob {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(start, "start");
    if (nodes < 1) {
      throw new IllegalArgumentException("running job " + id + ": nodes " + nodes + " must be at least 1");
    }
  }
}
