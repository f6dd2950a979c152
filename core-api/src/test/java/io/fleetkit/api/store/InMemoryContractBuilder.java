package io.fleetkit.api.store;

import io.fleetkit.api.admission.AdmissionChain;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/** The contract settings on {@link ObjectStore#builder()}. */
final class InMemoryContractBuilder implements ContractBuilder {
  private final ObjectStoreBuilder b = ObjectStore.builder();

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
