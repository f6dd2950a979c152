package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.internal.DefaultController;
import io.fleetkit.reconcile.internal.SecondaryWatch;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Configures a {@link Controller}. A {@link #reconciler} is required; everything else has a default. Each setting
 * may be made once; a second call (or choosing both {@link #workers} and {@link #stepping}) fails with
 * {@link IllegalStateException} naming the old value. Not thread-safe.
 *
 * @param <T> the primary kind
 */
public final class ControllerBuilder<T extends ApiObject<T>> {
  private final ObjectStore store;
  private final Class<T> primary;
  private Predicate<? super T> eventFilter = o -> true;
  private @Nullable String name;
  private @Nullable Reconciler<T> reconciler;
  private int workers = -1;
  private boolean stepping;
  private @Nullable TimerClock clock;
  private @Nullable RateLimiter<ObjectKey> rateLimiter;
  private @Nullable String namespace;
  private @Nullable Duration resyncPeriod;
  private io.fleetkit.api.metrics.@Nullable MetricsRegistry metrics;
  private io.fleetkit.api.events.@Nullable EventRecorder events;
  private io.fleetkit.api.tracing.@Nullable Tracing tracing;
  private @Nullable SharedInformers informers;
  private final Map<Class<?>, SecondaryWatch> secondary = new LinkedHashMap<>();

  ControllerBuilder(ObjectStore store, Class<T> primary) {
    this.store = Objects.requireNonNull(store, "store");
    this.primary = Objects.requireNonNull(primary, "primary");
  }

  private String who() {
    return "controller " + (name != null ? name : primary.getSimpleName());
  }

  private void once(boolean alreadySet, String setting, @Nullable Object old) {
    if (alreadySet) {
      throw new IllegalStateException(who() + ": " + setting + " was already set to " + old);
    }
  }

  /**
   * Queues an event of the primary kind only if {@code accept} takes its object (for an update, the old or the new
   * one), as controller-runtime's {@code WithEventFilter}; secondary watches and handlers are not filtered. Default:
   * every event.
   */
  public ControllerBuilder<T> eventFilter(Predicate<? super T> accept) {
    this.eventFilter = Objects.requireNonNull(accept, "accept");
    return this;
  }

  /** The name in logs and thread names; default the primary kind's simple class name in lower case. */
  public ControllerBuilder<T> name(String name) {
    Objects.requireNonNull(name, "name");
    once(this.name != null, "name", this.name);
    if (name.isBlank()) {
      throw new IllegalArgumentException(who() + ": name must not be blank");
    }
    this.name = name;
    return this;
  }

  /** The reconciler (required). */
  public ControllerBuilder<T> reconciler(Reconciler<T> reconciler) {
    Objects.requireNonNull(reconciler, "reconciler");
    once(this.reconciler != null, "reconciler", this.reconciler);
    this.reconciler = reconciler;
    return this;
  }

  /**
   * Threaded mode with {@code n} worker threads (default 1).
   *
   * @throws IllegalArgumentException if {@code n < 1}
   */
  public ControllerBuilder<T> workers(int n) {
    if (n < 1) {
      throw new IllegalArgumentException(who() + ": workers must be at least 1 but was " + n);
    }
    once(workers != -1, "workers", workers);
    once(stepping, "workers", "stepping()");
    workers = n;
    return this;
  }

  /** Stepping mode: no threads; drive with {@link Controller#runOnce()}. */
  public ControllerBuilder<T> stepping() {
    once(workers != -1, "stepping()", "workers(" + workers + ")");
    once(stepping, "stepping()", "stepping()");
    stepping = true;
    return this;
  }

  /** The clock for delays, backoff and resync; default {@link TimerClock#system()}. */
  public ControllerBuilder<T> clock(TimerClock clock) {
    Objects.requireNonNull(clock, "clock");
    once(this.clock != null, "clock", this.clock);
    this.clock = clock;
    return this;
  }

  /** The queue's rate limiter; default {@link RateLimiters#defaultController} on the clock. */
  public ControllerBuilder<T> rateLimiter(RateLimiter<ObjectKey> limiter) {
    Objects.requireNonNull(limiter, "limiter");
    once(rateLimiter != null, "rateLimiter", rateLimiter);
    rateLimiter = limiter;
    return this;
  }

  /** Watch only this namespace; default all. */
  public ControllerBuilder<T> namespace(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    once(this.namespace != null, "namespace", this.namespace);
    this.namespace = namespace;
    return this;
  }

  /** The informers' resync period; default zero (never). */
  public ControllerBuilder<T> resyncPeriod(Duration period) {
    Objects.requireNonNull(period, "period");
    once(resyncPeriod != null, "resyncPeriod", resyncPeriod);
    resyncPeriod = period;
    return this;
  }

  /**
   * Records the controller's metrics ({@link io.fleetkit.reconcile.metrics.ControllerMetrics}, labelled with the
   * controller's name) and its queue's ({@link io.fleetkit.reconcile.metrics.WorkQueueMetrics}, queue name = the
   * controller's name, as controller-runtime does) into {@code registry}; default none.
   */
  public ControllerBuilder<T> metrics(io.fleetkit.api.metrics.MetricsRegistry registry) {
    Objects.requireNonNull(registry, "registry");
    once(metrics != null, "metrics", metrics);
    metrics = registry;
    return this;
  }

  /**
   * Where the reconciler's events go ({@link ReconcileContext#events()}); default
   * {@link io.fleetkit.api.events.EventRecorder#NOOP}. Wrapped with
   * {@link io.fleetkit.api.events.EventRecorder#bestEffort}: a recorder that throws never fails a reconcile.
   */
  public ControllerBuilder<T> events(io.fleetkit.api.events.EventRecorder recorder) {
    Objects.requireNonNull(recorder, "recorder");
    once(events != null, "events", events);
    events = recorder;
    return this;
  }

  /**
   * Opens a span ({@value io.fleetkit.api.tracing.Tracing#SPAN_RECONCILE}) per reconcile; default none.
   */
  public ControllerBuilder<T> tracing(io.fleetkit.api.tracing.Tracing t) {
    Objects.requireNonNull(t, "tracing");
    once(tracing != null, "tracing", tracing);
    tracing = t;
    return this;
  }

  /**
   * Takes the primary and every watched kind's informer from {@code shared} instead of building its own (one cache
   * per kind for all the controllers given the same {@link SharedInformers}); default its own informers. The
   * controller's handlers are registered when it starts and removed when it closes. Needs the store the shared
   * informers watch, every namespace and no resync.
   */
  public ControllerBuilder<T> informers(SharedInformers shared) {
    Objects.requireNonNull(shared, "shared");
    once(informers != null, "informers", informers);
    if (shared.store() != store) {
      throw new IllegalArgumentException(who() + ": the shared informers watch another store (" + shared.store()
          + ") than the controller's (" + store + ")");
    }
    informers = shared;
    return this;
  }

  /**
   * Also watch {@code kind}, and map each of its objects to its controller owner: the owner reference with
   * {@code controller=true}, if it names an object of the primary kind.
   *
   * @throws IllegalStateException if {@code kind} is already watched or is the primary kind
   */
  public <O extends ApiObject<O>> ControllerBuilder<T> owns(Class<O> kind) {
    return watches(kind, null);
  }

  /**
   * Also watch {@code kind}, mapping each of its objects to the primary keys {@code mapper} returns.
   *
   * @throws IllegalStateException if {@code kind} is already watched or is the primary kind
   */
  public <O extends ApiObject<O>> ControllerBuilder<T> watches(Class<O> kind,
      @Nullable Function<? super O, ? extends Collection<ObjectKey>> mapper) {
    return watch(kind, mapper != null ? SecondaryWatch.mapping(mapper) : SecondaryWatch.owner());
  }

  /**
   * Also watch {@code kind}, but wake the controller only on events of the types in {@code on} (client-go's
   * handler with only some of {@code AddFunc}, {@code UpdateFunc}, {@code DeleteFunc}): each such event's object is
   * mapped to the primary keys {@code mapper} returns from it and the watched kind's cache, which already holds the
   * new state (for a deletion: no longer holds the object). Events of other types only update the cache, which
   * {@link ReconcileContext#lister(Class)} reads. For an update both the old and the new object are mapped.
   *
   * @throws IllegalStateException if {@code kind} is already watched or is the primary kind
   * @throws IllegalArgumentException if {@code on} is empty
   */
  @SuppressWarnings("unchecked")
  public <O extends ApiObject<O>> ControllerBuilder<T> watches(Class<O> kind, Set<WatchEventType> on,
      BiFunction<? super O, ? super Lister<O>, ? extends Collection<ObjectKey>> mapper) {
    Objects.requireNonNull(on, "on");
    Objects.requireNonNull(mapper, "mapper");
    if (on.isEmpty()) {
      throw new IllegalArgumentException(who() + ": the watch of kind " + kind.getSimpleName()
          + " must handle at least one event type");
    }
    return watch(kind, new SecondaryWatch(on, (o, cache) -> mapper.apply((O) o, (Lister<O>) cache)));
  }

  /**
   * Also calls {@code handler} on every event of {@code kind}, a kind already {@linkplain #watches watched}, before
   * the controller maps the event to keys, on the same informer (its cache already holds the new state), as an
   * upstream controller adds its own handler to a shared informer: for bookkeeping such as expectations. Handlers
   * are called in the order given.
   *
   * @throws IllegalStateException if {@code kind} is not watched (or is the primary kind)
   */
  public <O extends ApiObject<O>> ControllerBuilder<T> handler(Class<O> kind, ResourceEventHandler<O> handler) {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(handler, "handler");
    SecondaryWatch w = secondary.get(kind);
    if (w == null) {
      throw new IllegalStateException(who() + ": kind " + kind.getSimpleName()
          + " is not watched; call owns or watches first (watched: "
          + secondary.keySet().stream().map(Class::getSimpleName).toList() + ")");
    }
    secondary.put(kind, w.withHandlerBefore(handler));
    return this;
  }

  private ControllerBuilder<T> watch(Class<?> kind, SecondaryWatch w) {
    Objects.requireNonNull(kind, "kind");
    if (kind.equals(primary) || secondary.containsKey(kind)) {
      throw new IllegalStateException(who() + ": kind " + kind.getSimpleName() + " is already watched");
    }
    secondary.put(kind, w);
    return this;
  }

  /**
   * A new controller, not started.
   *
   * @throws IllegalStateException if no reconciler was set
   */
  public Controller<T> build() {
    if (reconciler == null) {
      throw new IllegalStateException(who() + ": a reconciler is required");
    }
    if (informers != null && ((namespace != null && !namespace.isEmpty())
        || (resyncPeriod != null && !resyncPeriod.isZero()))) {
      throw new IllegalStateException(who() + ": shared informers cache every namespace and never resync, but the"
          + " controller was given namespace \"" + (namespace != null ? namespace : "") + "\" and resyncPeriod "
          + (resyncPeriod != null ? resyncPeriod : Duration.ZERO));
    }
    TimerClock c = clock != null ? clock : TimerClock.system();
    return new DefaultController<>(name != null ? name : primary.getSimpleName().toLowerCase(java.util.Locale.ROOT),
        store, primary, reconciler, stepping ? 0 : workers == -1 ? 1 : workers, c,
        rateLimiter != null ? rateLimiter : RateLimiters.defaultController(c), namespace != null ? namespace : "",
        resyncPeriod != null ? resyncPeriod : Duration.ZERO, secondary,
        metrics != null ? metrics : io.fleetkit.api.metrics.MetricsRegistry.NOOP,
        events != null ? io.fleetkit.api.events.EventRecorder.bestEffort(events)
            : io.fleetkit.api.events.EventRecorder.NOOP,
        tracing != null ? tracing : io.fleetkit.api.tracing.Tracing.NOOP, informers, eventFilter);
  }
}
