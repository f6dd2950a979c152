package io.fleetkit.api.store;

/** {@link ObjectStoreWatchContract} on the in-memory store. */
final class ObjectStoreWatchTest extends ObjectStoreWatchContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
