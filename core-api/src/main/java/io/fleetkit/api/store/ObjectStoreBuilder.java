package io.fleetkit.api.store;

import io.fleetkit.api.store.internal.InMemoryObjectStore;

/**
 * Configures an in-memory {@link ObjectStore}: the settings of {@link StoreBuilder}. Each setting may be made once;
 * a second call, or choosing both a delivery executor and direct delivery, fails with {@link IllegalStateException}.
 * Not thread-safe.
 */
public final class ObjectStoreBuilder extends StoreBuilder<ObjectStoreBuilder> {
  /** How many events the store keeps for watch replay unless told otherwise. */
  public static final int DEFAULT_HISTORY_LIMIT = 10_000;

  /**
   * How many undelivered events one watch may hold unless told otherwise: about 6 MB of queue for a listener that
   * never returns (events share the stored objects), ten times the default history.
   */
  public static final int DEFAULT_WATCH_QUEUE_LIMIT = 100_000;

  ObjectStoreBuilder() {}

  /**
   * {@inheritDoc} In memory the store keeps that many of the most recent events (across all kinds); default
   * {@value #DEFAULT_HISTORY_LIMIT}.
   */
  @Override
  public ObjectStoreBuilder historyLimit(int limit) {
    return super.historyLimit(limit);
  }

  /** A new in-memory store with these settings: listeners in direct mode run on the writing thread. */
  @Override
  protected ObjectStore open() {
    int history = historyLimitSetting() != -1 ? historyLimitSetting() : DEFAULT_HISTORY_LIMIT;
    return new InMemoryObjectStore(clockSetting(), history,
        directDeliverySetting() ? Runnable::run : deliveryExecutorSetting(), uidGeneratorSetting(),
        admissionSetting(), watchQueueLimitSetting());
  }
}
