package io.fleetkit.api.store;

/** {@link ObjectStoreAdmissionContract} on the in-memory store. */
final class ObjectStoreAdmissionTest extends ObjectStoreAdmissionContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
