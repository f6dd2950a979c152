package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;

/**
 * What a {@link Reconciler} gets: the key to reconcile and read access to the world. A read-only facade: reads
 * come from the informer caches (fast, possibly slightly behind the store); writes go through {@link #store()}.
 * Valid only during the call.
 *
 * @param <T> the primary kind
 */
public interface ReconcileContext<T extends ApiObject<T>> {
  /** The key being reconciled. */
  ObjectKey key();

  /** The primary object from the cache, or empty if it is gone (deleted, or not yet seen). */
  Optional<T> object();

  /** The cache of the primary kind. */
  Lister<T> lister();

  /**
   * The cache of a kind the controller owns or watches.
   *
   * @throws IllegalArgumentException if the controller has no informer for {@code kind}
   */
  <O extends ApiObject<O>> Lister<O> lister(Class<O> kind);

  /** The store, for writes and for reads that must be current. */
  ObjectStore store();

  /** The controller's clock. */
  Clock clock();

  /** Shorthand for {@code clock().instant()}. */
  default Instant now() {
    return clock().instant();
  }

  /**
   * Where to record events about the objects reconciled (kube's controllers emit {@code SuccessfulCreate},
   * {@code FailedCreate}, ...); {@link io.fleetkit.api.events.EventRecorder#NOOP} unless the controller was given
   * one.
   */
  default io.fleetkit.api.events.EventRecorder events() {
    return io.fleetkit.api.events.EventRecorder.NOOP;
  }

  /** How many times this key has been requeued with backoff since it last succeeded. */
  int retries();
}
