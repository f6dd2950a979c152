package io.fleetkit.store.etcd;

import io.fleetkit.api.store.StoreBuilder;
import io.fleetkit.api.store.ObjectStoreConcurrencyContract;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * {@link ObjectStoreConcurrencyContract} on the etcd store: 8 threads of read-modify-write with retry, no lost
 * update, every watcher sees every version in order. The assertions are the contract's; the load is 8 x 100
 * increments unless {@code -Dfleetkit.etcd.contract.increments=1500} asks for the in-memory store's full load.
 *
 * <p>Why not the full load in every build: the 8 threads contend for one key, so each increment costs etcd about
 * 7.5 requests (a read and a transaction per attempt, 2.5 to 3.5 failed attempts per success, counted from etcd's
 * own request metrics), and the time is etcd's request rate: on the shared 2-core machine 500 to 800 requests/s,
 * i.e. 50 to 100 increments/s, so 12,000 increments take two to four minutes there (with the client's JIT and its
 * network threads a large part of the CPU: docs/reliability.md). A build of ~1 s per 100 increments keeps the same
 * assertions.
 */
@ExtendWith(LiveEtcd.class)
final class EtcdConcurrencyContractTest extends ObjectStoreConcurrencyContract {
  @Override
  protected StoreBuilder<?> newBuilder() {
    return LiveEtcd.newStore();
  }

  @Override
  protected int incrementsPerThread() {
    return Integer.getInteger("fleetkit.etcd.contract.increments", 100);
  }
}
