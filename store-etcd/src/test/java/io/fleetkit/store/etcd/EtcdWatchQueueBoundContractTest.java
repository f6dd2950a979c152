package io.fleetkit.store.etcd;

import io.fleetkit.api.store.ContractBuilder;
import io.fleetkit.api.store.WatchQueueBoundContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link WatchQueueBoundContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdWatchQueueBoundContractTest extends WatchQueueBoundContract {
  @Override
  protected ContractBuilder newBuilder() {
    return new EtcdContractBuilder();
  }
}
