package io.fleetkit.autoscale.vpa;

import java.util.Objects;

/**
 * What the updater did (or declined to do) with one pod.
 *
 * @param pod {@code namespace/name}
 * @param action {@code Evicted}, {@code ResizedInPlace}, {@code BlockedByPdb}, {@code BlockedByEvictionTolerance}
 * @param priority the pod's update priority
 */
public record UpdateAction(String pod, String action, PodPriority priority) {
  public UpdateAction {
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(priority, "priority");
  }
}
