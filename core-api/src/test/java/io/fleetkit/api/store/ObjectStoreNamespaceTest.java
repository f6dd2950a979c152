package io.fleetkit.api.store;

/** {@link ObjectStoreNamespaceContract} on the in-memory store. */
final class ObjectStoreNamespaceTest extends ObjectStoreNamespaceContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
