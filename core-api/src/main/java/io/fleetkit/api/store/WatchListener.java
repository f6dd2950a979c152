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
}
