package io.fleetkit.api.rollouts;

import java.time.Duration;
import java.util.List;
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

  /**
   * Sends the requests whose headers match to the canary only, through the managed route {@code name} (Argo
   * Rollouts' {@code setHeaderRoute}; needs traffic routing, and {@code name} must be one of its
   * {@code managedRoutes}). With no {@code match} the route is removed. The step completes at once.
   */
  record SetHeaderRoute(String name, List<HeaderRoutingMatch> match) implements CanaryStep {
    public SetHeaderRoute {
      Objects.requireNonNull(name, "name");
      match = List.copyOf(match);
    }

    @Override
    public String fieldName() {
      return "setHeaderRoute";
    }
  }

  /**
   * Mirrors {@code percentage} percent of the requests that match (any of {@code match}; all requests when empty)
   * to the canary through the managed route {@code name}, while they are still answered by the stable and canary
   * split (Argo Rollouts' {@code setMirrorRoute}; needs traffic routing and {@code name} among its
   * {@code managedRoutes}). The step completes at once.
   *
   * @param percentage 0..100; {@code null} mirrors every matching request
   */
  record SetMirrorRoute(String name, List<RouteMatch> match, @Nullable Integer percentage) implements CanaryStep {
    public SetMirrorRoute {
      Objects.requireNonNull(name, "name");
      match = List.copyOf(match);
    }

    @Override
    public String fieldName() {
      return "setMirrorRoute";
    }
  }
}
