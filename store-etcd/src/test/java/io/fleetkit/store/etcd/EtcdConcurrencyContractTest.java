package io.fleetkit.store.etcd;

import io.fleetkit.api.store.ContractBuilder;
import io.fleetkit.api.store.ObjectStoreConcurrencyContract;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ObjectStoreConcurrencyContract} on the etcd store: 8 threads of read-modify-write with retry, no lost
 * update, every watcher sees every version in order. 8 x 100 increments instead of 8 x 1,500: each attempt is two
 * round trips to etcd, and the 8 threads contend for one key.
 */
@ExtendWith(LiveEtcd.class)
final class EtcdConcurrencyContractTest extends ObjectStoreConcurrencyContract {
  @Override
  protected ContractBuilder newBuilder() {
    return new EtcdContractBuilder();
  }

  @Override
  protected int incrementsPerThread() {
    return 100;
  }
}
