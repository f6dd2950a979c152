package io.fleetkit.api.store;

/** {@link ObjectStoreCrudContract} on the in-memory store. */
final class ObjectStoreCrudTest extends ObjectStoreCrudContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
