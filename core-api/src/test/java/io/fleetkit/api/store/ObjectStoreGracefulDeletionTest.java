package io.fleetkit.api.store;

/** {@link ObjectStoreGracefulDeletionContract} on the in-memory store. */
final class ObjectStoreGracefulDeletionTest extends ObjectStoreGracefulDeletionContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
