package io.fleetkit.simulator;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Rollout's state at a point of a run.
 *
 * @param name {@code namespace/name}
 * @param phase {@code Healthy}, {@code Paused}, {@code Progressing} or {@code Degraded}
 * @param stableRevision the pod template hash of the stable version
 * @param canaryWeight the canary's traffic weight in percent (the stable version has the rest)
 * @param aborted whether the update was aborted (automatically or by hand) and traffic sent back to stable
 * @param step the index of the current canary step ({@code steps.size()} once all are done, and for a template
 *     that became stable without running them: the first one, or a return to the stable one); {@code null} for a
 *     blue-green or a canary without steps
 * @param message why the rollout is in its phase (empty when Healthy)
 */
public record RolloutSummary(String name, String phase, String stableRevision, int canaryWeight, boolean aborted,
    @Nullable Integer step, String message) {
  public RolloutSummary {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(stableRevision, "stableRevision");
    Objects.requireNonNull(message, "message");
  }

  /** A summary without step and message. */
  public RolloutSummary(String name, String phase, String stableRevision, int canaryWeight, boolean aborted) {
    this(name, phase, stableRevision, canaryWeight, aborted, null, "");
  }
}
