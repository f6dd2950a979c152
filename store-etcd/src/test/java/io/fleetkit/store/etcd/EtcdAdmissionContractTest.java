package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreAdmissionContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreAdmissionContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdAdmissionContractTest extends ObjectStoreAdmissionContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
