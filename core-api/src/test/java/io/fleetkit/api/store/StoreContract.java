package io.fleetkit.api.store;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * The base of the {@link ObjectStore} contract tests: the in-memory store runs them in core-api, other stores (etcd)
 * in their own modules, by supplying {@link #newBuilder()}. Every store a test builds is closed after it.
 */
public abstract class StoreContract {
  private final List<ObjectStore> built = new ArrayList<>();

  /** A builder for a new, empty store of the implementation under test (its version {@code "1"}, no object). */
  protected abstract StoreBuilder<?> newBuilder();

  /** {@link #newBuilder()}, remembering what it builds so that it is closed after the test. */
  protected final StoreBuilder<?> builder() {
    StoreBuilder<?> b = newBuilder();
    b.onBuilt(s -> {
      synchronized (built) {
        built.add(s);
      }
    });
    return b;
  }

  @AfterEach
  final void closeBuiltStores() {
    synchronized (built) {
      built.forEach(ObjectStore::close);
      built.clear();
    }
  }
}
