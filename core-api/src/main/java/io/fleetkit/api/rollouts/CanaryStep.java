package io.fleetkit.api.rollouts;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One step of a canary rollout (Argo Rollouts' {@code CanaryStep} one-of). */
public sealed interface CanaryStep {
  /** The step's field name in the manifest, e.g. {@code setWeight}. */
  String fieldName();

  /**
   * Sends {@code weight} percent of the traffic (and, without traffic routing, of the replicas) to the canary.
   */
  record SetWeight(int weight) implements CanaryStep {
    @Override
    public String fieldName() {
      return "setWeight";
    }
  }

  /**
   * Waits: for {@code duration}, or until promoted when {@code duration} is {@code null}.
   */
  record Pause(@Nullable Duration duration) implements CanaryStep {
    /** An indefinite pause (waits for a promote). */
    public static Pause indefinite() {
      return new Pause(null);
    }

    public static Pause of(Duration d) {
      return new Pause(Objects.requireNonNull(d, "duration"));
    }

    @Override
    public String fieldName() {
      return "pause";
    }
  }

  /** Runs an analysis; the step completes when it is Successful, and a Failed or Error run aborts the rollout. */
  record Analysis(RolloutAnalysis analysis) implements CanaryStep {
    public Analysis {
      Objects.requireNonNull(analysis, "analysis");
    }

    @Override
    public String fieldName() {
      return "analysis";
    }
  }

  /**
   * Scales the canary independently of traffic (needs traffic routing): to {@code replicas}, or to {@code weight}
   * percent of the rollout's replicas, or back to the traffic weight with {@code matchTrafficWeight}.
   */
  record SetCanaryScale(@Nullable Integer replicas, @Nullable Integer weight, boolean matchTrafficWeight)
      implements CanaryStep {
    @Override
    public String fieldName() {
      return "setCanaryScale";
    }
  }
}
