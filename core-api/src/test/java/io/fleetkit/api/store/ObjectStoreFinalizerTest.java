package io.fleetkit.api.store;

/** {@link ObjectStoreFinalizerContract} on the in-memory store. */
final class ObjectStoreFinalizerTest extends ObjectStoreFinalizerContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
