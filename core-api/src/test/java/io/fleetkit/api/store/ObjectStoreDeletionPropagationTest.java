package io.fleetkit.api.store;

/** {@link ObjectStoreDeletionPropagationContract} on the in-memory store. */
final class ObjectStoreDeletionPropagationTest extends ObjectStoreDeletionPropagationContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return ObjectStore.builder();
  }
}
