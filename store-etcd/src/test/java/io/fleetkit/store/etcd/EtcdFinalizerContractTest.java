package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreFinalizerContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreFinalizerContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdFinalizerContractTest extends ObjectStoreFinalizerContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
