package io.fleetkit.api.store;

/** {@link ObjectStoreConcurrencyContract} on the in-memory store. */
final class ObjectStoreConcurrencyTest extends ObjectStoreConcurrencyContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
