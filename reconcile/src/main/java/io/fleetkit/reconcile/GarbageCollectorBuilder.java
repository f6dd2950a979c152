package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.internal.DefaultGarbageCollector;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Configures a {@link GarbageCollector}: the kinds to watch (owners and dependents), the mode and the clock. Not
 * thread-safe.
 */
public final class GarbageCollectorBuilder {
  private final ObjectStore store;
  private final Set<Class<?>> kinds = new LinkedHashSet<>();
  private final Map<String, Class<?>> declaredNames = new LinkedHashMap<>();
  private int workers = -1;
  private boolean stepping;
  private @Nullable TimerClock clock;
  private @Nullable SharedInformers informers;

  GarbageCollectorBuilder(ObjectStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  /**
   * Watches {@code kind} as a possible owner and dependent.
   *
   * @throws IllegalStateException if it is already watched
   */
  public <T extends ApiObject<T>> GarbageCollectorBuilder watch(Class<T> kind) {
    Objects.requireNonNull(kind, "kind");
    if (!kinds.add(kind)) {
      throw new IllegalStateException("garbage collector: kind " + kind.getSimpleName() + " is already watched");
    }
    return this;
  }

  /**
   * Watches {@code kind} and declares the {@code apiVersion} and {@code kind} name its objects report, so that
   * references to owners of this kind resolve even before (or without) the collector seeing one of them, e.g. a
   * dependent whose owner was deleted before the collector started.
   *
   * @throws IllegalStateException if it is already watched
   */
  public <T extends ApiObject<T>> GarbageCollectorBuilder watch(Class<T> kind, String apiVersion, String kindName) {
    Objects.requireNonNull(apiVersion, "apiVersion");
    Objects.requireNonNull(kindName, "kindName");
    watch(kind);
    declaredNames.put(DefaultGarbageCollector.groupKind(apiVersion, kindName), kind);
    return this;
  }

  /** Threaded mode with {@code n} workers (default 1). */
  public GarbageCollectorBuilder workers(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("garbage collector: workers must be at least 1 but was " + n);
    }
    if (workers != -1 || stepping) {
      throw new IllegalStateException("garbage collector: mode was already set to "
          + (stepping ? "stepping()" : "workers(" + workers + ")"));
    }
    workers = n;
    return this;
  }

  /** Stepping mode: drive with {@link GarbageCollector#runOnce()}. */
  public GarbageCollectorBuilder stepping() {
    if (workers != -1 || stepping) {
      throw new IllegalStateException("garbage collector: mode was already set to "
          + (stepping ? "stepping()" : "workers(" + workers + ")"));
    }
    stepping = true;
    return this;
  }

  /** The clock for retry backoff; default {@link TimerClock#system()}. */
  public GarbageCollectorBuilder clock(TimerClock clock) {
    Objects.requireNonNull(clock, "clock");
    if (this.clock != null) {
      throw new IllegalStateException("garbage collector: clock was already set to " + this.clock);
    }
    this.clock = clock;
    return this;
  }

  /**
   * Takes the informers of the watched kinds from {@code shared} (adding the collector's owner-uid index to their
   * caches) instead of building its own; default its own. See {@link SharedInformers}.
   *
   * @throws IllegalStateException if shared informers were already set
   * @throws IllegalArgumentException if they watch another store
   */
  public GarbageCollectorBuilder informers(SharedInformers shared) {
    Objects.requireNonNull(shared, "shared");
    if (informers != null) {
      throw new IllegalStateException("garbage collector: informers were already set to " + informers);
    }
    if (shared.store() != store) {
      throw new IllegalArgumentException("garbage collector: the shared informers watch another store ("
          + shared.store() + ") than the collector's (" + store + ")");
    }
    informers = shared;
    return this;
  }

  /**
   * A new collector, not started.
   *
   * @throws IllegalStateException if no kind is watched
   */
  public GarbageCollector build() {
    if (kinds.isEmpty()) {
      throw new IllegalStateException("garbage collector: watch at least one kind");
    }
    return new DefaultGarbageCollector(store, kinds, declaredNames, stepping ? 0 : workers == -1 ? 1 : workers,
        clock != null ? clock : TimerClock.system(), informers);
  }
}
