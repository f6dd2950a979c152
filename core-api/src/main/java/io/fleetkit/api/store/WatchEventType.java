package io.fleetkit.api.store;

/** What happened to an object, as the {@code type} of a Kubernetes watch event. */
public enum WatchEventType {
  /** The object was created. */
  ADDED,
  /** The object changed, including being marked for deletion (its {@code deletionTimestamp} set). */
  MODIFIED,
  /** The object is gone; the event carries its last state with the resourceVersion of the removal. */
  DELETED
}
