package io.fleetkit.autoscale.hpa;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one HPA sync did.
 *
 * @param hpa {@code namespace/name}
 * @param currentReplicas the target's replicas before the sync
 * @param desiredReplicas the replicas the HPA wants (equal to current when it did not rescale)
 * @param rescaled whether the target's scale was updated
 * @param events the Kubernetes events the controller would record, as {@code "<type> <reason> <message>"}, e.g.
 *     {@code "Normal SuccessfulRescale New size: 5; reason: cpu resource utilization (percentage of request) above
 *     target"}
 * @param error the error upstream's {@code reconcileAutoscaler} would return, {@code null} when none
 */
public record SyncOutcome(String hpa, int currentReplicas, int desiredReplicas, boolean rescaled, List<String> events,
    @Nullable String error) {
  public SyncOutcome {
    Objects.requireNonNull(hpa, "hpa");
    events = List.copyOf(events);
  }
}
