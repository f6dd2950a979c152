package io.fleetkit.store.etcd;

import io.fleetkit.api.store.ObjectStoreDeletionPropagationContract;
import io.fleetkit.api.store.StoreBuilder;
import org.junit.jupiter.api.extension.ExtendWith;

/** {@link ObjectStoreDeletionPropagationContract}: the store contract, unchanged, on the etcd store. */
@ExtendWith(LiveEtcd.class)
final class EtcdDeletionPropagationContractTest extends ObjectStoreDeletionPropagationContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }
}
