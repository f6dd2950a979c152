package io.fleetkit.api.policy;

import io.fleetkit.api.meta.Condition;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The observed state of a PodDisruptionBudget. Counts are not negative (checked by {@link PodDisruptionBudget}).
 *
 * @param observedGeneration the generation last acted on; 0 when none
 * @param disruptedPods pods whose eviction was admitted but that are not yet gone, with the admission time
 * @param disruptionsAllowed how many more pods may be disrupted now
 * @param conditions {@value #DISRUPTION_ALLOWED} with reasons {@value #SUFFICIENT_PODS},
 *     {@value #INSUFFICIENT_PODS} or {@value #SYNC_FAILED}
 */
public record PodDisruptionBudgetStatus(long observedGeneration, Map<String, Instant> disruptedPods,
    int disruptionsAllowed, int currentHealthy, int desiredHealthy, int expectedPods, List<Condition> conditions) {
  public static final String DISRUPTION_ALLOWED = "DisruptionAllowed";
  public static final String SUFFICIENT_PODS = "SufficientPods";
  public static final String INSUFFICIENT_PODS = "InsufficientPods";
  public static final String SYNC_FAILED = "SyncFailed";

  /** The status of a new budget. */
  public static final PodDisruptionBudgetStatus EMPTY =
      new PodDisruptionBudgetStatus(0, Map.of(), 0, 0, 0, 0, List.of());

  public PodDisruptionBudgetStatus {
    disruptedPods = Map.copyOf(disruptedPods);
    conditions = List.copyOf(conditions);
  }
}
