package io.fleetkit.api.store.spi;

/**
 * A kind's default treatment of dependents when a deletion names no policy, as the API server's
 * {@code rest.GarbageCollectionPolicy} ({@code DefaultGarbageCollectionPolicy} of a registry strategy). See
 * {@link DeletionFinalizers#defaultPolicy}.
 */
public enum GarbageCollectionPolicy {
  /** Dependents are deleted (in the background unless the object carries the foreground finalizer). */
  DELETE_DEPENDENTS,
  /** Dependents are orphaned: a deletion without options adds the {@code orphan} finalizer. */
  ORPHAN_DEPENDENTS,
  /** The kind takes no garbage-collection finalizers from a deletion, whatever the options say. */
  UNSUPPORTED
}
