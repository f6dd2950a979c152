package io.fleetkit.api.store;

import io.fleetkit.api.meta.ApiObject;

/**
 * Receives the events of one {@link Watch}, one at a time, in resourceVersion order. Calls for the same watch never
 * overlap; which thread makes them depends on the store's delivery mode (see {@link ObjectStore}). A listener may
 * call back into the store. A listener that throws is logged at WARN and keeps receiving later events.
 *
 * @param <T> the kind
 */
@FunctionalInterface
public interface WatchListener<T extends ApiObject<T>> {
  void onEvent(WatchEvent<T> event);

  /**
   * The watch has ended because this listener fell too far behind: more undelivered events than the store's watch
   * queue limit piled up, as when the API server drops a slow watcher. Every event before the end was delivered;
   * later ones were not. Called once, after the last {@link #onEvent}, on the same delivery path; the watch is
   * closed by then. Relist and watch again from the list's version (an informer does so). Default: nothing, so a
   * listener that cannot relist simply stops receiving events (the store logs the end at WARN).
   */
  default void onExpired(io.fleetkit.api.ExpiredException cause) {}
}
