package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import java.util.concurrent.CompletableFuture;

/**
 * Runs a {@link Reconciler} for every object of a primary kind: informers feed keys into a
 * {@link RateLimitingQueue}, workers take keys and reconcile them, outcomes requeue them. Changes to owned kinds
 * are mapped to their controller owner (the {@code ownerReferences} entry with {@code controller=true}), so a
 * ReplicaSet controller hears about its pods.
 *
 * <p>Two modes, chosen in the builder:
 * <ul>
 *   <li><b>threaded</b> ({@link ControllerBuilder#workers(int)}, default 1 worker): {@link #start()} starts the
 *       informers and then N worker threads named {@code fleetkit-controller-NAME-i};</li>
 *   <li><b>stepping</b> ({@link ControllerBuilder#stepping()}): no threads; the caller drives the controller with
 *       {@link #runOnce()} / {@link #runUntilIdle()}, which reconcile on the calling thread. With a store in direct
 *       delivery mode and a {@link io.fleetkit.api.time.ManualClock}, a simulation is fully deterministic.</li>
 * </ul>
 * The same key is never reconciled concurrently in either mode. Thread-safe.
 *
 * @param <T> the primary kind
 */
public interface Controller<T extends ApiObject<T>> extends AutoCloseable {

  /** A builder for a controller of {@code primary} objects in {@code store}. */
  static <T extends ApiObject<T>> ControllerBuilder<T> builder(ObjectStore store, Class<T> primary) {
    return new ControllerBuilder<>(store, primary);
  }

  /** The controller's name (logs, thread names). */
  String name();

  /**
   * Starts the informers and, in threaded mode, the workers.
   *
   * @return completes when every informer has synced (and the workers run)
   * @throws IllegalStateException if closed
   */
  CompletableFuture<Void> start();

  /**
   * Stepping mode: reconciles one key that is ready now, on the calling thread.
   *
   * @return whether a key was processed
   * @throws IllegalStateException in threaded mode or before {@link #start()}
   */
  boolean runOnce();

  /**
   * Stepping mode: calls {@link #runOnce()} until no key is ready (keys waiting for a delay stay waiting).
   *
   * @return how many keys were processed
   * @throws IllegalStateException in threaded mode, before {@link #start()}, or after 1,000,000 keys in one call
   *     (a reconciler that always requeues without delay)
   */
  int runUntilIdle();

  /** Adds a key to the queue, as if its object had changed. */
  void enqueue(ObjectKey key);

  /** The controller's queue (for inspection: length, requeue counts). */
  RateLimitingQueue<ObjectKey> queue();

  /** The cache of the primary kind. */
  Lister<T> lister();

  /** Stops the workers (each finishes its current key), the queue and the informers. Idempotent. */
  @Override
  void close();
}
