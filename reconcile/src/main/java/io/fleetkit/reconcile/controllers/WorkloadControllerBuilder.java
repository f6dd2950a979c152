package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.api.time.TimerClock;
import java.util.Objects;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The settings every workload controller of this package shares: its name, its clock, and stepping or threaded
 * mode. Each controller's {@code Builder} extends it with what is its own (a seed, a burst size) and
 * {@link #build()}s the controller; only this package's controllers extend it.
 *
 * <pre>{@code
 * JobController jobs = JobController.builder(store).clock(clock).stepping().build();
 * }</pre>
 *
 * <p>Not thread-safe.
 *
 * @param <B> the concrete builder, which every setter returns
 * @param <C> the controller it builds
 */
public abstract class WorkloadControllerBuilder<B extends WorkloadControllerBuilder<B, C>, C> {
  private final ObjectStore store;
  private final String owner;
  private String name;
  private @Nullable TimerClock clock;
  private boolean stepping;
  private int workers = 1;

  /**
   * @param owner the controller's class name, in error messages
   * @param defaultName the controller's default {@link #name}
   */
  WorkloadControllerBuilder(ObjectStore store, String owner, String defaultName) {
    this.store = Objects.requireNonNull(store, "store");
    this.owner = owner;
    this.name = defaultName;
  }

  private io.fleetkit.api.metrics.@org.jspecify.annotations.Nullable MetricsRegistry metrics;
  private io.fleetkit.api.events.@org.jspecify.annotations.Nullable EventRecorder events;
  private io.fleetkit.api.tracing.@org.jspecify.annotations.Nullable Tracing tracing;
  private io.fleetkit.reconcile.@org.jspecify.annotations.Nullable SharedInformers informers;

  /** The controller name (logs, thread names); the default is the kind in lower case, e.g. {@code job}. */
  public final B name(String v) {
    name = Objects.requireNonNull(v, "name");
    return self();
  }

  /**
   * The clock (queue delays, backoff, deadlines, expectations TTL, as the controller uses them); default the system
   * clock.
   *
   * @throws IllegalStateException if a clock was already set
   */
  public final B clock(TimerClock v) {
    if (clock != null) {
      throw new IllegalStateException(owner + ": clock was already set to " + clock);
    }
    clock = Objects.requireNonNull(v, "clock");
    return self();
  }

  /** Stepping mode: no threads, drive the controller with its {@code runUntilIdle()}. Wins over {@link #workers}. */
  public final B stepping() {
    stepping = true;
    return self();
  }

  /**
   * Threaded mode with {@code n} workers (default 1).
   *
   * @throws IllegalArgumentException if {@code n < 1}
   */
  public final B workers(int n) {
    if (n < 1) {
      throw new IllegalArgumentException(owner + ": workers must be at least 1 but was " + n);
    }
    workers = n;
    return self();
  }

  /**
   * Records the controller's and its queue's metrics into {@code registry} (see
   * {@link io.fleetkit.reconcile.ControllerBuilder#metrics}); default none.
   */
  public final B metrics(io.fleetkit.api.metrics.MetricsRegistry registry) {
    metrics = Objects.requireNonNull(registry, "registry");
    return self();
  }

  /** Where the controller records its events ({@code SuccessfulCreate}, {@code FailedCreate}, ...); default none. */
  public final B events(io.fleetkit.api.events.EventRecorder recorder) {
    events = Objects.requireNonNull(recorder, "recorder");
    return self();
  }

  /**
   * Traces every reconcile as a {@value io.fleetkit.api.tracing.Tracing#SPAN_RECONCILE} span (see
   * {@link io.fleetkit.reconcile.ControllerBuilder#tracing}); default none.
   */
  public final B tracing(io.fleetkit.api.tracing.Tracing t) {
    tracing = Objects.requireNonNull(t, "tracing");
    return self();
  }

  /**
   * Takes the controller's informers from {@code shared} (see
   * {@link io.fleetkit.reconcile.ControllerBuilder#informers}); default its own.
   *
   * @throws IllegalStateException if shared informers were already set
   * @throws IllegalArgumentException if they watch another store
   */
  public final B informers(io.fleetkit.reconcile.SharedInformers shared) {
    Objects.requireNonNull(shared, "shared");
    if (informers != null) {
      throw new IllegalStateException(owner + ": informers were already set to " + informers);
    }
    if (shared.store() != store) {
      throw new IllegalArgumentException(owner + ": the shared informers watch another store (" + shared.store()
          + ") than the controller's (" + store + ")");
    }
    informers = shared;
    return self();
  }

  /** A new controller, not started. */
  public abstract C build();

  final ObjectStore store() {
    return store;
  }

  /** The registry set, else {@link io.fleetkit.api.metrics.MetricsRegistry#NOOP}. */
  final io.fleetkit.api.metrics.MetricsRegistry metricsRegistry() {
    return metrics != null ? metrics : io.fleetkit.api.metrics.MetricsRegistry.NOOP;
  }

  /** The clock set, else the system clock. */
  final TimerClock effectiveClock() {
    return clock != null ? clock : TimerClock.system();
  }

  /**
   * The runtime controller of {@code primary}: named, then {@code specific} adds the reconciler and the watches,
   * then the clock and the mode are applied.
   */
  final <T extends ApiObject<T>> Controller<T> buildController(Class<T> primary,
      Consumer<ControllerBuilder<T>> specific) {
    return buildController(primary, "", specific);
  }

  /**
   * {@link #buildController(Class, Consumer)} for a second runtime controller of the same workload controller,
   * named after it with {@code nameSuffix} (the Job controller's orphan-pod queue).
   */
  final <T extends ApiObject<T>> Controller<T> buildController(Class<T> primary, String nameSuffix,
      Consumer<ControllerBuilder<T>> specific) {
    ControllerBuilder<T> cb = Controller.builder(store, primary).name(name + nameSuffix);
    specific.accept(cb);
    cb.clock(effectiveClock());
    if (metrics != null) {
      cb.metrics(metrics);
    }
    if (events != null) {
      cb.events(events);
    }
    if (tracing != null) {
      cb.tracing(tracing);
    }
    if (informers != null) {
      cb.informers(informers);
    }
    if (stepping) {
      cb.stepping();
    } else {
      cb.workers(workers);
    }
    return cb.build();
  }

  @SuppressWarnings("unchecked") // B is this builder's own class, by the contract of the subclasses
  final B self() {
    return (B) this;
  }
}
