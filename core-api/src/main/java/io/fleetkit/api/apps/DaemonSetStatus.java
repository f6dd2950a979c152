package io.fleetkit.api.apps;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The observed part of a DaemonSet, as apps/v1 {@code DaemonSetStatus}: counts of nodes, not of pods.
 *
 * @param currentNumberScheduled nodes that should run the daemon pod and run at least one
 * @param numberMisscheduled nodes that run the daemon pod but should not
 * @param desiredNumberScheduled nodes that should run the daemon pod
 * @param numberReady nodes whose (oldest) daemon pod is ready
 * @param updatedNumberScheduled nodes whose daemon pod is of the current template
 * @param numberAvailable nodes whose daemon pod has been ready for minReadySeconds
 * @param numberUnavailable {@code desiredNumberScheduled - numberAvailable}
 */
public record DaemonSetStatus(int currentNumberScheduled, int numberMisscheduled, int desiredNumberScheduled,
    int numberReady, int updatedNumberScheduled, int numberAvailable, int numberUnavailable, long observedGeneration,
    @Nullable Integer collisionCount, List<DaemonSetCondition> conditions) {
  public static final DaemonSetStatus EMPTY = new DaemonSetStatus(0, 0, 0, 0, 0, 0, 0, 0, null, List.of());

  public DaemonSetStatus {
    conditions = List.copyOf(conditions);
  }

  public DaemonSetStatus withCollisionCount(@Nullable Integer count) {
    return new DaemonSetStatus(currentNumberScheduled, numberMisscheduled, desiredNumberScheduled, numberReady,
        updatedNumberScheduled, numberAvailable, numberUnavailable, observedGeneration, count, conditions);
  }
}
