package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps a local, indexed cache of one kind in step with an {@link ObjectStore} and tells handlers what changed,
 * as client-go's {@code SharedIndexInformer}: it lists the kind, then watches from the list's resourceVersion
 * (so no change is lost or seen twice), relists when the store says the version is too old
 * ({@link io.fleetkit.api.ExpiredException}), and every resync period replays every cached object to the handlers
 * as an update (level-triggered controllers use this to correct drift).
 *
 * <p>Lifecycle: build with {@link #builder}, add handlers, {@link #start()}, read through {@link #lister()},
 * {@link #close()}. Handlers added after the start first receive an {@code onAdd} for every cached object.
 * See {@link ResourceEventHandler} for the handler threading. Thread-safe.
 *
 * @param <T> the kind
 */
public interface Informer<T extends ApiObject<T>> extends AutoCloseable {

  /** A builder for an informer on {@code kind} in {@code store}. */
  static <T extends ApiObject<T>> InformerBuilder<T> builder(ObjectStore store, Class<T> kind) {
    return new InformerBuilder<>(store, kind);
  }

  /** The kind this informer caches. */
  Class<T> kind();

  /** Registers a handler; if the informer has started, replays the cache to it as adds first. */
  void addEventHandler(ResourceEventHandler<T> handler);

  /**
   * Lists and starts watching. The initial list is applied (and handlers called) before the returned future
   * completes; with the embedded store this happens on the calling thread, so the future is normally complete on
   * return. Calling it again returns the same future.
   *
   * @return completes when the cache holds the initial list; fails if the store is closed
   * @throws IllegalStateException if the informer was closed
   */
  CompletableFuture<Void> start();

  /** Whether the initial list has been applied. */
  boolean hasSynced();

  /** The cache. Empty until started. */
  Lister<T> lister();

  /** The resourceVersion of the last list or event applied ({@code ""} before the start). */
  String lastSyncResourceVersion();

  /** How many times the informer has listed the kind (1 after a normal start; more after expired watches). */
  int listCount();

  /** Stops the watch and the resync timer. Handlers receive no further calls once this returns. Idempotent. */
  @Override
  void close();
}
