package io.fleetkit.simulator;

import java.util.Objects;

/**
 * A Rollout's state at a point of a run.
 *
 * @param name {@code namespace/name}
 * @param phase {@code Healthy}, {@code Paused}, {@code Progressing} or {@code Degraded}
 * @param stableRevision the pod template hash of the stable version
 * @param canaryWeight the canary's traffic weight in percent
 */
public record RolloutSummary(String name, String phase, String stableRevision, int canaryWeight, boolean aborted) {
  public RolloutSummary {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(stableRevision, "stableRevision");
  }
}
