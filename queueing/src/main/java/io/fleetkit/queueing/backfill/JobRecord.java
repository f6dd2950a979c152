package io.fleetkit.queueing.backfill;

import java.time.Instant;
import java.util.Objects;

/**
 * How a simulated job ran.
 *
 * @param id the job id
 * @param nodes its nodes
 * @param start when it started
 * @param end when it ended
 * @param state {@code COMPLETED}, or {@code TIMEOUT} when it was killed at its time limit (plus OverTimeLimit)
 */
public record JobRecord(String id, int nodes, Instant start, Instant end, State state) {
  public enum State {
    COMPLETED,
    TIMEOUT
  }

  public JobRecord {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(start, "start");
    Objects.requireNonNull(end, "end");
    Objects.requireNonNull(state, "state");
  }
}
