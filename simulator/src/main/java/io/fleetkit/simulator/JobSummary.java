package io.fleetkit.simulator;

import java.util.Objects;

/**
 * A Job's state at the end of a run.
 *
 * @param name {@code namespace/name}
 * @param succeeded pods that succeeded
 * @param failed pods that failed
 */
public record JobSummary(String name, int succeeded, int failed) {
  public JobSummary {
    Objects.requireNonNull(name, "name");
  }
}
