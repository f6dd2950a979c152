package io.fleetkit.scheduler;

import java.util.Objects;

/**
 * A pod the scheduler has not bound yet, as queue introspection shows it.
 *
 * @param podKey {@code namespace/name}
 * @param queue where it waits
 * @param attempts how many scheduling cycles it has had
 * @param message why it is not bound yet (kube's diagnosis); empty before its first attempt
 */
public record PendingPod(String podKey, Queue queue, int attempts, String message) {
  /** The sub-queues of the scheduling queue, plus the two states a pod is in while being scheduled. */
  public enum Queue {
    /** Ready to be scheduled, ordered by the profile's QueueSort. */
    ACTIVE,
    /** Failed recently; waits out its backoff (1 s doubling to 10 s). */
    BACKOFF,
    /** Rejected; waits for a cluster event that could help, or for the 5-minute flush. */
    UNSCHEDULABLE,
    /** Held back by a PreEnqueue plugin until a cluster event. */
    GATED,
    /** Reserved on a node and held by a Permit plugin. */
    WAITING_ON_PERMIT
  }

  public PendingPod {
    Objects.requireNonNull(podKey, "podKey");
    Objects.requireNonNull(queue, "queue");
    Objects.requireNonNull(message, "message");
  }
}
