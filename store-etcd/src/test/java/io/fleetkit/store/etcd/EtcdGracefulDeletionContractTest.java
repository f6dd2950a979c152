package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreGracefulDeletionContract;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreGracefulDeletionContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdGracefulDeletionContractTest extends ObjectStoreGracefulDeletionContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
