package io.fleetkit.autoscale.provisioner;

import java.util.Objects;

/**
 * One step of the drain of a node the provisioner terminates (Karpenter's termination controller and eviction queue,
 * {@code pkg/controllers/node/termination}): a pod evicted, an eviction refused, or a pod deleted at the node's
 * {@code terminationGracePeriod}.
 *
 * @param node the node being drained
 * @param pod the pod, {@code namespace/name}
 * @param kind what happened
 * @param message the eviction API's refusal, or the grace period a deletion granted ({@code granted 29s of its 30s
 *     terminationGracePeriodSeconds}); {@code ""} for an eviction
 */
public record DrainEvent(String node, String pod, Kind kind, String message) {
  /** What happened to the pod. */
  public enum Kind {
    /** Evicted through the eviction API (its PodDisruptionBudget allowed it). */
    EVICTED,
    /**
     * The eviction API refused (a PodDisruptionBudget allows no disruption, or more than one selects the pod); tried
     * again at the next loop. Reported once per pod and refusal until it changes.
     */
    EVICTION_REFUSED,
    /**
     * Deleted without the eviction API, so that it ends by the node's {@code terminationGracePeriod}: whatever its
     * budgets and {@code do-not-disrupt}.
     */
    DELETED
  }

  public DrainEvent {
    Objects.requireNonNull(node, "node");
    Objects.requireNonNull(pod, "pod");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(message, "message");
  }
}
