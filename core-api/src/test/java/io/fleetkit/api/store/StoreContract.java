package io.fleetkit.api.store;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import io.fleetkit.api.admission.AdmissionChain;
import org.junit.jupiter.api.AfterEach;

/**
 * The base of the {@link ObjectStore} contract tests: the in-memory store runs them in core-api, other stores (etcd)
 * in their own modules, by supplying {@link #newBuilder()}. Every store a test builds is closed after it.
 */
public abstract class StoreContract {
  private final List<ObjectStore> built = new ArrayList<>();

  /** A builder for a new, empty store of the implementation under test. */
  protected abstract ContractBuilder newBuilder();

  /** {@link #newBuilder()}, remembering what it builds so that it is closed after the test. */
  protected final ContractBuilder builder() {
    ContractBuilder b = newBuilder();
    return new ContractBuilder() {
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
        ObjectStore s = b.build();
        synchronized (built) {
          built.add(s);
        }
        return s;
      }
    };
  }

  @AfterEach
  final void closeBuiltStores() {
    synchronized (built) {
      built.forEach(ObjectStore::close);
      built.clear();
    }
  }
}
