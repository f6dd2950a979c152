package io.fleetkit.api.store;

import io.fleetkit.api.admission.AdmissionChain;
import java.time.Clock;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The settings every {@link ObjectStore} implementation takes, in one place: {@link ObjectStoreBuilder} (in memory)
 * and the builders of other stores (etcd) extend it with their own. Each setting may be made once; a second call,
 * or choosing both a delivery executor and direct delivery, fails with {@link IllegalStateException}. Not
 * thread-safe.
 *
 * @param <B> the concrete builder, returned by every setting
 */
public abstract class StoreBuilder<B extends StoreBuilder<B>> {
  private @Nullable Clock clock;
  private int historyLimit = -1;
  private @Nullable Executor deliveryExecutor;
  private boolean directDelivery;
  private @Nullable Supplier<String> uidGenerator;
  private int watchQueueLimit = -1;
  private @Nullable AdmissionChain admission;
  /** Told of every store built (package-private: the store contract tests close what they build). */
  private @Nullable Consumer<ObjectStore> onBuilt;

  protected StoreBuilder() {}

  @SuppressWarnings("unchecked")
  private B self() {
    return (B) this;
  }

  /** The clock for {@code creationTimestamp} and {@code deletionTimestamp}; default {@link Clock#systemUTC()}. */
  public B clock(Clock clock) {
    Objects.requireNonNull(clock, "clock");
    requireUnset("clock", this.clock);
    this.clock = clock;
    return self();
  }

  /**
   * How many of the most recent versions stay available to watches that start from an older version: a watch
   * from before them fails with "too old resource version" ({@link io.fleetkit.api.ExpiredException}). The default
   * is the implementation's.
   *
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  public B historyLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("historyLimit must be at least 1 but was " + limit);
    }
    requireUnset("historyLimit", historyLimit != -1 ? historyLimit : null);
    historyLimit = limit;
    return self();
  }

  /**
   * The executor that drains watch queues. Each watch submits at most one drain task at a time, so a single-thread
   * executor serialises all listeners; a pool runs different watches in parallel. The store does not shut it down.
   * Default: a store-owned pool of daemon threads, shut down by {@link ObjectStore#close()}.
   */
  public B deliveryExecutor(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    requireUnset("deliveryExecutor", deliveryExecutor);
    if (directDelivery) {
      throw new IllegalStateException("deliveryExecutor conflicts with directDelivery(), which was already chosen");
    }
    deliveryExecutor = executor;
    return self();
  }

  /**
   * Listeners have seen a write before it returns (see {@link ObjectStore}): deterministic delivery for simulations
   * and tests. How an implementation achieves it is its own (the in-memory store runs listeners on the writing
   * thread).
   */
  public B directDelivery() {
    if (deliveryExecutor != null) {
      throw new IllegalStateException("directDelivery() conflicts with deliveryExecutor, already set to "
          + deliveryExecutor);
    }
    if (directDelivery) {
      throw new IllegalStateException("directDelivery() was already chosen");
    }
    directDelivery = true;
    return self();
  }

  /**
   * Where new objects' uids come from; default random UUIDs. A deterministic generator makes simulations
   * reproducible. Called once per create attempt, possibly from several threads: must be thread-safe and must not
   * repeat.
   */
  public B uidGenerator(Supplier<String> uids) {
    Objects.requireNonNull(uids, "uids");
    requireUnset("uidGenerator", uidGenerator);
    uidGenerator = uids;
    return self();
  }

  /**
   * How many undelivered events one watch may hold before it is ended with "too old resource version"
   * ({@link WatchListener#onExpired}); default {@value ObjectStoreBuilder#DEFAULT_WATCH_QUEUE_LIMIT}. This bounds
   * the memory a listener that never returns can pin, as the API server bounds each watcher's buffer.
   *
   * @throws IllegalArgumentException if {@code limit < 1}
   */
  public B watchQueueLimit(int limit) {
    if (limit < 1) {
      throw new IllegalArgumentException("watchQueueLimit must be at least 1 but was " + limit);
    }
    requireUnset("watchQueueLimit", watchQueueLimit != -1 ? watchQueueLimit : null);
    watchQueueLimit = limit;
    return self();
  }

  /**
   * The admission plugins run on every create, update and delete before the write (see {@link AdmissionChain}); a
   * denial reaches the caller as {@link io.fleetkit.api.admission.AdmissionDeniedException} and nothing is written.
   * Status updates are not admitted. Default: none, and the store behaves exactly as without admission.
   */
  public B admission(AdmissionChain chain) {
    Objects.requireNonNull(chain, "chain");
    requireUnset("admission", admission);
    admission = chain;
    return self();
  }

  /**
   * A new store with these settings. The builder may be reused.
   *
   * @throws RuntimeException as the implementation's {@link #open()} documents
   */
  public final ObjectStore build() {
    ObjectStore store = open();
    if (onBuilt != null) {
      onBuilt.accept(store);
    }
    return store;
  }

  /**
   * The rule "each setting may be made once", for this class and its subclasses' own settings.
   *
   * @param current the setting's value so far, {@code null} if unset
   * @throws IllegalStateException "{@code setting} was already set to {@code current}" if it was set
   */
  protected static void requireUnset(String setting, @Nullable Object current) {
    if (current != null) {
      throw new IllegalStateException(setting + " was already set to " + current);
    }
  }

  /** Builds the store from the settings (the {@code *Setting()} accessors and the implementation's own). */
  protected abstract ObjectStore open();

  void onBuilt(Consumer<ObjectStore> listener) {
    onBuilt = listener;
  }

  /** The clock set, else {@link Clock#systemUTC()}. */
  protected final Clock clockSetting() {
    return clock != null ? clock : Clock.systemUTC();
  }

  /** The history limit set, else {@code -1}. */
  protected final int historyLimitSetting() {
    return historyLimit;
  }

  /** The delivery executor set, else {@code null} (direct delivery or the store's own pool). */
  protected final @Nullable Executor deliveryExecutorSetting() {
    return deliveryExecutor;
  }

  protected final boolean directDeliverySetting() {
    return directDelivery;
  }

  /** The uid generator set, else random UUIDs. */
  protected final Supplier<String> uidGeneratorSetting() {
    return uidGenerator != null ? uidGenerator : () -> UUID.randomUUID().toString();
  }

  /** The watch queue limit set, else {@value ObjectStoreBuilder#DEFAULT_WATCH_QUEUE_LIMIT}. */
  protected final int watchQueueLimitSetting() {
    return watchQueueLimit != -1 ? watchQueueLimit : ObjectStoreBuilder.DEFAULT_WATCH_QUEUE_LIMIT;
  }

  /** The admission chain set, else the empty chain. */
  protected final AdmissionChain admissionSetting() {
    return admission != null ? admission : AdmissionChain.empty();
  }
}
