package io.fleetkit.store.etcd;

import io.fleetkit.api.store.ContractBuilder;
import io.fleetkit.api.store.WatchQueueBoundContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link WatchQueueBoundContract} on the etcd store, with 500 writes behind the stuck listener instead of 10,000. */
@ExtendWith(LiveEtcd.class)
final class EtcdWatchQueueBoundContractTest extends WatchQueueBoundContract {
  @Override
  protected ContractBuilder newBuilder() {
    return new EtcdContractBuilder();
  }

  @Override
  protected int writesBehindStuckListener() {
    return 500;
  }
}
