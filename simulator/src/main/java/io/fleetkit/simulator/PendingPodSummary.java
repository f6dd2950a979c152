package io.fleetkit.simulator;

import java.util.Objects;

/**
 * A pod that is not on a node at the end of a run, with why, as {@code kubectl describe pod} shows it.
 *
 * @param name {@code namespace/name}
 * @param reason the reason of its {@code PodScheduled=False} condition ({@code Unschedulable}, {@code SchedulerError},
 *     {@code SchedulingGated}), or empty when the scheduler has not reported on it (not tried yet, or waiting at
 *     PreEnqueue, e.g. for its resource claims)
 * @param message that condition's message (the scheduler's {@code 0/n nodes are available: ...}), or empty
 */
public record PendingPodSummary(String name, String reason, String message) {
  public PendingPodSummary {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
  }
}
