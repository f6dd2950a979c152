package io.fleetkit.api.store;

/** {@link WatchQueueBoundContract} on the in-memory store. */
final class WatchQueueBoundTest extends WatchQueueBoundContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
