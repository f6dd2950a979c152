package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;

/**
 * Receives an {@link Informer}'s notifications, as client-go's {@code ResourceEventHandler}. The cache already
 * holds the new state when a method is called.
 *
 * <p>Threading: one informer calls its handlers one at a time, never concurrently, in event order: on the thread
 * that calls {@link Informer#start()} for the initial list (and later relists), on the store's watch-delivery
 * thread for watch events (the writing thread in direct-delivery mode), and on the {@link io.fleetkit.api.time.TimerClock}'s
 * timer thread for resyncs. Handlers must be quick and must not block (typically they enqueue keys); one that
 * throws is logged and the informer goes on.
 *
 * @param <T> the kind
 */
public interface ResourceEventHandler<T extends ApiObject<T>> {
  /** {@code object} appeared (created, or found by a list). */
  default void onAdd(T object) {}

  /**
   * {@code oldObject} became {@code newObject}; on a periodic resync both are the same cached object.
   */
  default void onUpdate(T oldObject, T newObject) {}

  /**
   * {@code object} is gone.
   *
   * @param object its last state (the store's final state for a watched delete, the last cached state otherwise)
   * @param finalStateUnknown true when the delete was inferred by a relist (client-go's
   *     {@code DeletedFinalStateUnknown}): the object may have changed after the cached state
   */
  default void onDelete(T object, boolean finalStateUnknown) {}
}
