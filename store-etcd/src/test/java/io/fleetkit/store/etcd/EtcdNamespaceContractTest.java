package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreNamespaceContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreNamespaceContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdNamespaceContractTest extends ObjectStoreNamespaceContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
