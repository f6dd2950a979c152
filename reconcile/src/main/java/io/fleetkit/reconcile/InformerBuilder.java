package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.DefaultInformer;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Configures an {@link Informer}. Each setting may be made once; a second call fails with
 * {@link IllegalStateException} naming the old value. Not thread-safe.
 *
 * @param <T> the kind
 */
public final class InformerBuilder<T extends ApiObject<T>> {
  private final ObjectStore store;
  private final Class<T> kind;
  private @Nullable String namespace;
  private @Nullable Duration resyncPeriod;
  private @Nullable TimerClock clock;
  private final Map<String, Function<? super T, ? extends Collection<String>>> indexers = new LinkedHashMap<>();

  InformerBuilder(ObjectStore store, Class<T> kind) {
    this.store = Objects.requireNonNull(store, "store");
    this.kind = Objects.requireNonNull(kind, "kind");
  }

  /** Cache only this namespace; default {@code ""}, all namespaces. */
  public InformerBuilder<T> namespace(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    if (this.namespace != null) {
      throw new IllegalStateException("informer " + kind.getSimpleName() + ": namespace was already set to \""
          + this.namespace + "\"");
    }
    this.namespace = namespace;
    return this;
  }

  /**
   * Replays every cached object to the handlers as an update this often; default {@link Duration#ZERO}, never.
   *
   * @throws IllegalArgumentException if negative
   */
  public InformerBuilder<T> resyncPeriod(Duration period) {
    Objects.requireNonNull(period, "period");
    if (period.isNegative()) {
      throw new IllegalArgumentException("informer " + kind.getSimpleName()
          + ": resyncPeriod must not be negative but was " + period);
    }
    if (resyncPeriod != null) {
      throw new IllegalStateException("informer " + kind.getSimpleName() + ": resyncPeriod was already set to "
          + resyncPeriod);
    }
    resyncPeriod = period;
    return this;
  }

  /** The clock that times resyncs; default {@link TimerClock#system()}. */
  public InformerBuilder<T> clock(TimerClock clock) {
    Objects.requireNonNull(clock, "clock");
    if (this.clock != null) {
      throw new IllegalStateException("informer " + kind.getSimpleName() + ": clock was already set to "
          + this.clock);
    }
    this.clock = clock;
    return this;
  }

  /**
   * Adds a custom index: {@code function} maps an object to the index values it is found under.
   *
   * @throws IllegalStateException if an index of that name exists (built-in ones included)
   */
  public InformerBuilder<T> indexer(String name, Function<? super T, ? extends Collection<String>> function) {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(function, "function");
    if (name.equals(Lister.NAMESPACE_INDEX) || name.equals(Lister.LABEL_INDEX)
        || name.equals(Lister.CONTROLLER_INDEX) || indexers.containsKey(name)) {
      throw new IllegalStateException("informer " + kind.getSimpleName() + ": index \"" + name
          + "\" already exists");
    }
    indexers.put(name, function);
    return this;
  }

  /** A new, not yet started informer. */
  public Informer<T> build() {
    return new DefaultInformer<>(store, kind, namespace != null ? namespace : "",
        resyncPeriod != null ? resyncPeriod : Duration.ZERO, clock != null ? clock : TimerClock.system(),
        indexers);
  }
}
