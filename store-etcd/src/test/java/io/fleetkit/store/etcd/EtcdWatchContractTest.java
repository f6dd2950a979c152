package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreWatchContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreWatchContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdWatchContractTest extends ObjectStoreWatchContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
