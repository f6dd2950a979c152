package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.WatchQueueBoundContract;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link WatchQueueBoundContract} on the etcd store, unchanged: 10,000 creates behind the stuck listener (one etcd
 * transaction each; about 9 s on a 2-core machine at load average 27, a few seconds on an idle one).
 */
@ExtendWith(LiveEtcd.class)
final class EtcdWatchQueueBoundContractTest extends WatchQueueBoundContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
