package io.fleetkit.api.store;

/** {@link ObjectStoreConcurrencyContract} on the in-memory store. */
final class ObjectStoreConcurrencyTest extends ObjectStoreConcurrencyContract {
  @Override
  protected ContractBuilder newBuilder() {
    return new InMemoryContractBuilder();
  }
}
