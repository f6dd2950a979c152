package io.fleetkit.api.store;

/** {@link WatchQueueBoundContract} on the in-memory store. */
final class WatchQueueBoundTest extends WatchQueueBoundContract {
  @Override
  protected ContractBuilder newBuilder() {
    return new InMemoryContractBuilder();
  }
}
