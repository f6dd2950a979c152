package io.fleetkit.simulator;

import io.fleetkit.api.rollouts.CanaryStrategy;
import io.fleetkit.api.rollouts.Rollout;
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
 * @param step the index of the current canary step ({@code steps} once all are done, and for a template that became
 *     stable without running them: the first one, or a return to the stable one); {@code null} for a blue-green or a
 *     canary without steps
 * @param steps how many steps the canary has (0 for a blue-green)
 * @param message why the rollout is in its phase (empty when Healthy)
 */
public record RolloutSummary(String name, String phase, String stableRevision, int canaryWeight, boolean aborted,
    @Nullable Integer step, int steps, String message) {
  public RolloutSummary {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(stableRevision, "stableRevision");
    Objects.requireNonNull(message, "message");
  }

  /** A summary without step and message. */
  public RolloutSummary(String name, String phase, String stableRevision, int canaryWeight, boolean aborted) {
    this(name, phase, stableRevision, canaryWeight, aborted, null, 0, "");
  }

  /** The summary of {@code r} as it is. */
  public static RolloutSummary of(Rollout r) {
    return new RolloutSummary(r.metadata().key(), r.status().phase().name(), r.status().stableRs(),
        r.status().canaryWeight(), r.status().abort(), r.status().currentStepIndex(), steps(r), r.status().message());
  }

  /**
   * The step as {@code kubectl argo rollouts get rollout} shows it ({@code Step: 1/3}, {@code 3/3} once every step is
   * done): the current step's index over the number of steps; {@code null} without a step or without steps, where
   * Argo shows none.
   */
  public @Nullable String stepProgress() {
    return step == null || steps == 0 ? null : step + "/" + steps;
  }

  /** {@link #stepProgress()} of {@code r} as it is. */
  static @Nullable String stepProgress(Rollout r) {
    return of(r).stepProgress();
  }

  private static int steps(Rollout r) {
    CanaryStrategy canary = r.canary();
    return canary == null ? 0 : canary.steps().size();
  }
}
