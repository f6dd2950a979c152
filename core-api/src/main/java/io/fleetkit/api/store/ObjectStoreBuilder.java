package io.fleetkit.api.store;

import io.fleetkit.api.admission.AdmissionChain;
import io.fleetkit.api.store.internal.InMemoryObjectStore;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Configures an in-memory {@link ObjectStore}. Each setting may be made once; a second call, or choosing both a
 * delivery executor and direct delivery, fails with {@link IllegalStateException}. Not thread-safe.
 */
public final class ObjectStoreBuilder {
  /** How many events the store keeps for watch replay unless told otherwise. */
  public static final int DEFAULT_HISTORY_LIMIT = 10_000;

  /**
   * How many undelivered events one watch may hold unless told otherwise: about 6 MB of queue for a listener that
   * never returns (events share the stored objects), ten times the default history.
   */
  public static final int DEFAULT_WATCH_QUEUE_LIMIT = 100_000;

  private @Nullable Clock clock;
  private int historyLimit = -1;
  private @Nullable Executor deliveryExecutor;
  private boolean directDelivery;
  private @Nullable Supplier<String> uidGenerator;
  private int watchQueueLimit = -1;
  private @Nullable AdmissionChain admission;

  ObjectStoreBuilder() {}

  /** The clock for {@code creationTimestamp} and {@code deletionTimestamp}; default {@link Clock#systemUTC()}. */
  public ObjectStoreBuilder clock(Clock clock) {
    Objects.requireNonNull(clock, "clock");
    if (this.clock != null) {
      throw new IllegalStateException("clock was already set to " + this.clock);
    }
    this.clock = clock;
    return this;
  }

  /**
   * How many of the most recent events (across all kinds) are kept for watches that start from an older
   * version; default {@value #DEFAULT_HISTORY_LIMIT}.
   *
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  public ObjectStoreBuilder historyLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("historyLimit must be at least 1 but was " + limit);
    }
    if (historyLimit != -1) {
      throw new IllegalStateException("historyLimit was already set to " + historyLimit);
    }
    historyLimit = limit;
    return this;
  }

  /**
   * The executor that drains watch queues. Each watch submits at most one drain task at a time, so a single-thread
   * executor serialises all listeners; a pool runs different watches in parallel. The store does not shut it down.
   * Default: a store-owned pool of daemon threads named {@code fleetkit-store-watch-N}, shut down by
   * {@link ObjectStore#close()}.
   */
  public ObjectStoreBuilder deliveryExecutor(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    if (deliveryExecutor != null) {
      throw new IllegalStateException("deliveryExecutor was already set to " + deliveryExecutor);
    }
    if (directDelivery) {
      throw new IllegalStateException("deliveryExecutor conflicts with directDelivery(), which was already chosen");
    }
    deliveryExecutor = executor;
    return this;
  }

  /**
   * Listeners run on the writing thread after the commit, before the write returns (see {@link ObjectStore}):
   * deterministic delivery for simulations and tests.
   */
  public ObjectStoreBuilder directDelivery() {
    if (deliveryExecutor != null) {
      throw new IllegalStateException("directDelivery() conflicts with deliveryExecutor, already set to "
          + deliveryExecutor);
    }
    if (directDelivery) {
      throw new IllegalStateException("directDelivery() was already chosen");
    }
    directDelivery = true;
    return this;
  }

  /**
   * Where new objects' uids come from; default random UUIDs. A deterministic generator makes simulations
   * reproducible. Called outside the store lock, once per create attempt; must be thread-safe and must not repeat.
   */
  public ObjectStoreBuilder uidGenerator(Supplier<String> uids) {
    Objects.requireNonNull(uids, "uids");
    if (uidGenerator != null) {
      throw new IllegalStateException("uidGenerator was already set to " + uidGenerator);
    }
    uidGenerator = uids;
    return this;
  }

  /**
   * How many undelivered events one watch may hold before it is ended with "too old resource version"
   * ({@link WatchListener#onExpired}); default {@value #DEFAULT_WATCH_QUEUE_LIMIT}. This bounds the memory a
   * listener that never returns can pin, as the API server bounds each watcher's buffer.
   *
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  public ObjectStoreBuilder watchQueueLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("watchQueueLimit must be at least 1 but was " + limit);
    }
    if (watchQueueLimit != -1) {
      throw new IllegalStateException("watchQueueLimit was already set to " + watchQueueLimit);
    }
    watchQueueLimit = limit;
    return this;
  }

  /**
   * The admission plugins run on every create, update and delete before the write (see {@link AdmissionChain}); a
   * denial reaches the caller as {@link io.fleetkit.api.admission.AdmissionDeniedException} and nothing is written.
   * Status updates are not admitted. Default: none, and the store behaves exactly as without admission.
   */
  public ObjectStoreBuilder admission(AdmissionChain chain) {
    Objects.requireNonNull(chain, "chain");
    if (admission != null) {
      throw new IllegalStateException("admission was already set to " + admission);
    }
    admission = chain;
    return this;
  }

  /** A new store with these settings. The builder may be reused. */
  public ObjectStore build() {
    int history = historyLimit != -1 ? historyLimit : DEFAULT_HISTORY_LIMIT;
    return new InMemoryObjectStore(
        clock != null ? clock : Clock.systemUTC(),
        history,
        directDelivery ? Runnable::run : deliveryExecutor,
        uidGenerator != null ? uidGenerator : () -> UUID.randomUUID().toString(),
        admission != null ? admission : AdmissionChain.empty(),
        watchQueueLimit != -1 ? watchQueueLimit : DEFAULT_WATCH_QUEUE_LIMIT);
  }
}
