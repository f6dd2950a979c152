package io.fleetkit.store.etcd;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.store.ContractBuilder;
import io.fleetkit.api.store.ObjectStore;
import java.time.Clock;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/** The contract settings on {@link EtcdStore#builder}, each store under a prefix of its own on the test etcd. */
final class EtcdContractBuilder implements ContractBuilder {
  private final EtcdStoreBuilder b = EtcdStore.builder(LiveEtcd.endpoint())
      .prefix("/fleetkit-test/" + UUID.randomUUID());

  @Override
  public ContractBuilder clock(Clock clock) {
    b.clock(clock);
    return this;
  }

  @Override
  public ContractBuilder directDelivery() {
    b.directDelivery();
    return this;
  }

  @Override
  public ContractBuilder deliveryExecutor(Executor executor) {
    b.deliveryExecutor(executor);
    return this;
  }

  @Override
  public ContractBuilder uidGenerator(Supplier<String> uids) {
    b.uidGenerator(uids);
    return this;
  }

  @Override
  public ContractBuilder historyLimit(int limit) {
    b.historyLimit(limit);
    return this;
  }

  @Override
  public ContractBuilder watchQueueLimit(int limit) {
    b.watchQueueLimit(limit);
    return this;
  }

  @Override
  public ContractBuilder admission(AdmissionChain chain) {
    b.admission(chain);
    return this;
  }

  @Override
  public ObjectStore build() {
    return b.build();
  }
}
