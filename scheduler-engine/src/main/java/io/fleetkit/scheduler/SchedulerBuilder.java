package io.fleetkit.scheduler;

import io.fleetkit.api.framework.Binder;
import io.fleetkit.api.framework.SchedulerProfile;
import io.fleetkit.scheduler.internal.SchedulerConfig;
import io.fleetkit.scheduler.internal.SchedulerImpl;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * Builds a {@link Scheduler}. Every setting is optional; the defaults are kube-scheduler's (the default profile,
 * backoff 1 s to 10 s, unschedulable pods flushed after 5 minutes, assumed pods never expiring) plus an
 * {@link InMemoryBinder}, the system clock, Filter/Score on the scheduling thread alone on machines with at most 2 processors (else one thread per processor;
 * see {@link #parallelism}) and seed 0.
 *
 * <p>A setting made twice fails with a message naming the earlier value. Not thread-safe; {@link #build()} may be
 * called more than once.
 */
public final class SchedulerBuilder {
  private final List<SchedulerProfile> profiles = new ArrayList<>();
  private @Nullable PluginRegistry registry;
  private @Nullable Clock clock;
  private @Nullable LongSupplier ticker;
  private @Nullable Integer parallelism;
  private @Nullable Long seed;
  private @Nullable Binder binder;
  private io.fleetkit.api.store.@Nullable ObjectStore store;
  private @Nullable Evictor evictor;
  private @Nullable Duration initialBackoff;
  private @Nullable Duration maxBackoff;
  private @Nullable Duration maxInUnschedulable;
  private @Nullable Duration assumedPodTtl;
  private @Nullable Consumer<ScheduleResult> listener;
  private @Nullable Integer inlineWork;
  private @Nullable Integer bindParallelism;
  private @Nullable Integer metricsSamplePercent;
  private io.fleetkit.api.metrics.@Nullable MetricsRegistry metrics;
  private io.fleetkit.api.events.@Nullable EventRecorder events;
  private io.fleetkit.api.tracing.@Nullable Tracing tracing;

  SchedulerBuilder() {}

  /**
   * Adds a profile; pods choose one by {@code spec.schedulerName}. Without any, {@link DefaultPlugins#profile()} is
   * used. Every plugin a profile names must be in the registry.
   *
   * @throws IllegalArgumentException if a profile with the same scheduler name was added
   */
  public SchedulerBuilder profile(SchedulerProfile profile) {
    Objects.requireNonNull(profile, "profile");
    for (SchedulerProfile p : profiles) {
      if (p.schedulerName().equals(profile.schedulerName())) {
        throw new IllegalArgumentException("scheduler builder: profile schedulerName \"" + profile.schedulerName()
            + "\" is set twice; scheduler names must be unique");
      }
    }
    profiles.add(profile);
    return this;
  }

  /** The plugin factories profiles pick from; {@link PluginRegistry#defaults()} when unset. */
  public SchedulerBuilder registry(PluginRegistry registry) {
    once("registry", this.registry);
    this.registry = Objects.requireNonNull(registry, "registry");
    return this;
  }

  /** The clock for queue timestamps, backoff, Permit timeouts and plugins (simulations pass a manual clock). */
  public SchedulerBuilder clock(Clock clock) {
    once("clock", this.clock);
    if (ticker != null) {
      throw new IllegalStateException("scheduler builder: clock conflicts with the ticker set earlier; set one");
    }
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /** A nanosecond ticker instead of a clock (like {@link System#nanoTime()}); plugins then see a clock built on it. */
  public SchedulerBuilder ticker(LongSupplier nanoTicker) {
    once("ticker", this.ticker);
    if (clock != null) {
      throw new IllegalStateException("scheduler builder: ticker conflicts with the clock " + clock
          + " set earlier; set one");
    }
    this.ticker = Objects.requireNonNull(nanoTicker, "nanoTicker");
    return this;
  }

  /**
   * The default parallelism: the scheduling thread alone on machines with at most 2 processors, else one thread per
   * processor. Measured on 2 cores (SchedulingBasic, 5000 nodes): handing each cycle's Filter/Score to a second
   * thread costs more than it gains (16.8k pods/s with 2 threads, 28.8k with 1; 2.3k vs 3.3k scoring every node).
   */
  static int defaultParallelism() {
    int cpus = Runtime.getRuntime().availableProcessors();
    return cpus <= 2 ? 1 : cpus;
  }

  /** Threads that run Filter and Score (the calling thread included); at least 1. */
  public SchedulerBuilder parallelism(int threads) {
    once("parallelism", this.parallelism);
    if (threads < 1) {
      throw new IllegalArgumentException("scheduler builder: parallelism " + threads + " must be at least 1");
    }
    this.parallelism = threads;
    return this;
  }

  /**
   * Threads that run binding cycles asynchronously, as kube-scheduler does: once a pod is assumed on its node and has
   * passed Reserve and Permit, its PreBind and Bind run on one of these threads while the scheduling thread goes on
   * with the next pod; a binding that fails is unreserved, forgotten and re-queued. Use it when binding waits on
   * something slow (an API server round trip, volume provisioning): at 5 ms per binding, {@code n} threads bind up
   * to {@code n × 200} pods/s.
   *
   * <p>0 (the default) binds on the scheduling thread within the cycle: binding into the embedded store or
   * {@link InMemoryBinder} takes microseconds, less than a hand-off. With threads, PreBind and Bind plugins and the
   * {@link Binder} are called on them (they must be thread-safe, as kube's are); {@link Scheduler#scheduleOne()}
   * returns {@link io.fleetkit.api.framework.Status.Code#WAIT} for a pod whose binding is under way, its final result
   * goes to {@link #onResult} when the binding finishes, and {@link Scheduler#runUntilIdle()} returns once every
   * binding it started has finished (their results included).
   *
   * @throws IllegalArgumentException if {@code threads} is negative
   */
  public SchedulerBuilder bindParallelism(int threads) {
    once("bindParallelism", this.bindParallelism);
    if (threads < 0) {
      throw new IllegalArgumentException("scheduler builder: bindParallelism " + threads + " must not be negative");
    }
    this.bindParallelism = threads;
    return this;
  }

  /** Seeds the tie-breaking among equal-scored nodes and the first node-sampling offset. */
  public SchedulerBuilder seed(long seed) {
    once("seed", this.seed);
    this.seed = seed;
    return this;
  }

  /** Where bindings go; an {@link InMemoryBinder} when unset. A binder that is also an {@link Evictor} evicts too. */
  public SchedulerBuilder binder(Binder binder) {
    once("binder", this.binder);
    this.binder = Objects.requireNonNull(binder, "binder");
    return this;
  }

  /** Who evicts preemption victims; the binder if it is an {@link Evictor}, else {@link Evictor#NONE}. */
  public SchedulerBuilder evictor(Evictor evictor) {
    once("evictor", this.evictor);
    this.evictor = Objects.requireNonNull(evictor, "evictor");
    return this;
  }

  /** kube's {@code podInitialBackoffSeconds} (1 s) and {@code podMaxBackoffSeconds} (10 s). */
  public SchedulerBuilder backoff(Duration initial, Duration max) {
    once("backoff", this.initialBackoff);
    positive("initial backoff", initial);
    positive("max backoff", max);
    if (max.compareTo(initial) < 0) {
      throw new IllegalArgumentException("scheduler builder: max backoff " + max + " must not be below initial "
          + initial);
    }
    this.initialBackoff = initial;
    this.maxBackoff = max;
    return this;
  }

  /** kube's {@code podMaxInUnschedulablePodsDuration} (5 minutes). */
  public SchedulerBuilder podMaxInUnschedulablePodsDuration(Duration duration) {
    once("podMaxInUnschedulablePodsDuration", this.maxInUnschedulable);
    positive("podMaxInUnschedulablePodsDuration", duration);
    this.maxInUnschedulable = duration;
    return this;
  }

  /**
   * How long a bound pod stays assumed in the cache without being observed bound (through {@link Scheduler#addPod} /
   * {@link Scheduler#updatePod}) before it is forgotten; {@link Duration#ZERO} (the default, as kube's) never
   * expires them.
   */
  public SchedulerBuilder assumedPodTtl(Duration ttl) {
    once("assumedPodTtl", this.assumedPodTtl);
    if (ttl.isNegative()) {
      throw new IllegalArgumentException("scheduler builder: assumedPodTtl " + ttl + " must not be negative");
    }
    this.assumedPodTtl = ttl;
    return this;
  }

  /**
   * Makes the embedded object store the default binder target: without an explicit {@link #binder}, pods are bound
   * (and preemption victims evicted) through a {@link StoreBinder} on {@code store}, with this builder's clock, which
   * also records each failed attempt on the pod ({@code PodScheduled=False} with the diagnosis, and the nomination).
   * Feed the built scheduler from the same store with {@link Scheduler#attach}.
   */
  public SchedulerBuilder store(io.fleetkit.api.store.ObjectStore store) {
    once("store", this.store);
    this.store = Objects.requireNonNull(store, "store");
    return this;
  }

  /** Called with every result, on the thread that produced it (inside the scheduler's lock: keep it short). */
  public SchedulerBuilder onResult(Consumer<ScheduleResult> listener) {
    once("onResult", this.listener);
    this.listener = Objects.requireNonNull(listener, "listener");
    return this;
  }

  /**
   * How many node×plugin evaluations a cycle does on the scheduling thread before fanning Filter and Score out to the
   * worker threads ({@value SchedulerConfig#DEFAULT_INLINE_WORK}); tests set 0 to exercise the parallel path on small
   * clusters. Not part of the public contract.
   */
  SchedulerBuilder inlineWork(int evaluations) {
    once("inlineWork", this.inlineWork);
    if (evaluations < 0) {
      throw new IllegalArgumentException("scheduler builder: inlineWork " + evaluations + " must not be negative");
    }
    this.inlineWork = evaluations;
    return this;
  }

  /**
   * Records kube-scheduler's metrics ({@link io.fleetkit.scheduler.metrics.SchedulerMetrics}) into
   * {@code registry}; without one nothing is measured.
   */
  public SchedulerBuilder metrics(io.fleetkit.api.metrics.MetricsRegistry registry) {
    once("metrics", this.metrics);
    this.metrics = Objects.requireNonNull(registry, "registry");
    return this;
  }

  /**
   * The percentage of scheduling cycles whose plugin execution and extension-point durations are recorded; default
   * 10, kube-scheduler's {@code pluginMetricsSamplePercent}. Counters, gauges and attempt durations are recorded for
   * every cycle whatever this is.
   *
   * @throws IllegalArgumentException unless {@code percent} is in [0, 100]
   */
  public SchedulerBuilder metricsSamplePercent(int percent) {
    once("metricsSamplePercent", this.metricsSamplePercent);
    if (percent < 0 || percent > 100) {
      throw new IllegalArgumentException("scheduler builder: metricsSamplePercent " + percent
          + " must be between 0 and 100");
    }
    this.metricsSamplePercent = percent;
    return this;
  }

  /**
   * Records kube-scheduler's events ({@code Scheduled}, {@code FailedScheduling} on the pod, {@code Preempted} on
   * each victim) through {@code recorder}; default none.
   */
  public SchedulerBuilder events(io.fleetkit.api.events.EventRecorder recorder) {
    once("events", this.events);
    this.events = Objects.requireNonNull(recorder, "recorder");
    return this;
  }

  /**
   * Opens a span per scheduling attempt ({@value io.fleetkit.api.tracing.Tracing#SPAN_SCHEDULE}, continuing the
   * trace in the pod's {@value io.fleetkit.api.tracing.Tracing#TRACEPARENT_ANNOTATION} annotation) with a child
   * per extension point; default none.
   */
  public SchedulerBuilder tracing(io.fleetkit.api.tracing.Tracing tracing) {
    once("tracing", this.tracing);
    this.tracing = Objects.requireNonNull(tracing, "tracing");
    return this;
  }

  /**
   * Builds the scheduler and creates each profile's plugins.
   *
   * @throws IllegalArgumentException if a profile names a plugin the registry lacks, has no or several QueueSort
   *     plugins, or profiles disagree on QueueSort
   */
  public Scheduler build() {
    List<SchedulerProfile> ps = profiles.isEmpty() ? List.of(DefaultPlugins.profile()) : List.copyOf(profiles);
    Binder b = binder != null ? binder
        : store != null ? new StoreBinder(store, clock != null ? clock : java.time.Clock.systemUTC())
        : new InMemoryBinder();
    Evictor e = evictor != null ? evictor : b instanceof Evictor ev ? ev : Evictor.NONE;
    SchedulerConfig config = new SchedulerConfig(ps, registry != null ? registry : PluginRegistry.defaults(), clock,
        ticker, parallelism != null ? parallelism : defaultParallelism(),
        seed != null ? seed : 0L, b, e,
        initialBackoff != null ? initialBackoff : Duration.ofSeconds(1),
        maxBackoff != null ? maxBackoff : Duration.ofSeconds(10),
        maxInUnschedulable != null ? maxInUnschedulable : Duration.ofMinutes(5),
        assumedPodTtl != null ? assumedPodTtl : Duration.ZERO, listener,
        inlineWork != null ? inlineWork : SchedulerConfig.DEFAULT_INLINE_WORK,
        bindParallelism != null ? bindParallelism : 0,
        metricsSamplePercent != null ? metricsSamplePercent : SchedulerConfig.DEFAULT_METRICS_SAMPLE_PERCENT);
    return new SchedulerImpl(config, metrics != null ? metrics : io.fleetkit.api.metrics.MetricsRegistry.NOOP,
        events != null ? events : io.fleetkit.api.events.EventRecorder.NOOP,
        tracing != null ? tracing : io.fleetkit.api.tracing.Tracing.NOOP);
  }

  private static void once(String field, @Nullable Object old) {
    if (old != null) {
      throw new IllegalStateException("scheduler builder: " + field + " was already set to " + old);
    }
  }

  private static void positive(String field, Duration d) {
    Objects.requireNonNull(d, field);
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException("scheduler builder: " + field + " " + d + " must be positive");
    }
  }
}
