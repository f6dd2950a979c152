package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreCrudContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreCrudContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdCrudContractTest extends ObjectStoreCrudContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
