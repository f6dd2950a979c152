package io.fleetkit.api.framework;

/** Orders activeQ. Exactly one per profile (PrioritySort by default). */
public interface QueueSortPlugin extends Plugin {
  /** Negative when {@code a} should be tried before {@code b}. */
  int compare(QueuedPodInfo a, QueuedPodInfo b);
}
