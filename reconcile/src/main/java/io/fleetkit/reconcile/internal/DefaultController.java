package io.fleetkit.reconcile.internal;

import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.tracing.TraceSpan;
import io.fleetkit.api.tracing.Tracing;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.MDC;
import io.fleetkit.reconcile.metrics.ControllerMetrics;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.RateLimiter;
import io.fleetkit.reconcile.RateLimitingQueue;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.SharedInformers;
import io.fleetkit.api.time.TimerClock;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Informers → queue → reconciler, in threads or stepped by the caller. The queue's processing set is what keeps
 * one key off two workers; this class only has to call {@code done} exactly once per {@code get}.
 */
public final class DefaultController<T extends ApiObject<T>> implements Controller<T> {
  private static final Logger LOG = LoggerFactory.getLogger(DefaultController.class);
  /** MDC key: the controller's name, during a reconcile. */
  public static final String MDC_CONTROLLER = "controller";
  /** MDC key: the reconciled object's {@code namespace/name}. */
  public static final String MDC_OBJECT = "object";
  /** MDC key: a per-reconcile id ({@code <controller>-<n>}), as controller-runtime's {@code reconcileID}. */
  public static final String MDC_RECONCILE_ID = "reconcileID";
  private static final int MAX_STEPS_PER_RUN = 1_000_000;

  private final String name;
  private final ObjectStore store;
  private final Reconciler<T> reconciler;
  private final int workers;
  private final TimerClock clock;
  private final Clock javaClock;
  private final DefaultWorkQueue<ObjectKey> queue;
  private final Informer<T> primary;
  private final Map<Class<?>, Informer<?>> informers = new LinkedHashMap<>();
  private volatile @Nullable String primaryKindName;
  private final EventRecorder events;
  private final Tracing tracing;
  private final AtomicLong reconcileIds = new AtomicLong();
  /** Null when no registry was given: {@link #process} then measures nothing. */
  private final @Nullable ReconcileMetrics metrics;
  private final WorkerLifecycle lifecycle;
  /** Where the informers come from, or null: the controller builds its own. */
  private final @Nullable SharedInformers shared;

  public DefaultController(String name, ObjectStore store, Class<T> primaryKind, Reconciler<T> reconciler,
      int workers, TimerClock clock, RateLimiter<ObjectKey> limiter, String namespace, Duration resync,
      Map<Class<?>, SecondaryWatch> secondary) {
    this(name, store, primaryKind, reconciler, workers, clock, limiter, namespace, resync, secondary,
        MetricsRegistry.NOOP, EventRecorder.NOOP, Tracing.NOOP, null);
  }

  /**
   * A controller that records controller-runtime's metrics and its queue's into {@code metrics}, hands
   * {@code events} to its reconciler and opens a span per reconcile in {@code tracing}.
   */
  public DefaultController(String name, ObjectStore store, Class<T> primaryKind, Reconciler<T> reconciler,
      int workers, TimerClock clock, RateLimiter<ObjectKey> limiter, String namespace, Duration resync,
      Map<Class<?>, SecondaryWatch> secondary, MetricsRegistry metrics,
      EventRecorder events, Tracing tracing) {
    this(name, store, primaryKind, reconciler, workers, clock, limiter, namespace, resync, secondary, metrics, events,
        tracing, null);
  }

  /**
   * As above; with {@code shared} not null every informer is a view of the shared one of its kind (the caller
   * checked that the namespace is every namespace and that there is no resync).
   */
  public DefaultController(String name, ObjectStore store, Class<T> primaryKind, Reconciler<T> reconciler,
      int workers, TimerClock clock, RateLimiter<ObjectKey> limiter, String namespace, Duration resync,
      Map<Class<?>, SecondaryWatch> secondary, MetricsRegistry metrics,
      EventRecorder events, Tracing tracing, @Nullable SharedInformers shared) {
    this(name, store, primaryKind, reconciler, workers, clock, limiter, namespace, resync, secondary, metrics, events,
        tracing, shared, o -> true);
  }

  /**
   * As above; an event of the primary kind queues its object only if {@code eventFilter} accepts the object (an
   * update: the old or the new one), as controller-runtime's event filters.
   */
  public DefaultController(String name, ObjectStore store, Class<T> primaryKind, Reconciler<T> reconciler,
      int workers, TimerClock clock, RateLimiter<ObjectKey> limiter, String namespace, Duration resync,
      Map<Class<?>, SecondaryWatch> secondary, MetricsRegistry metrics,
      EventRecorder events, Tracing tracing, @Nullable SharedInformers shared,
      Predicate<? super T> eventFilter) {
    this.shared = shared;
    this.events = events;
    this.tracing = tracing;
    this.metrics = ReconcileMetrics.of(metrics, name, workers);
    this.name = name;
    this.store = store;
    this.reconciler = reconciler;
    this.workers = workers;
    this.clock = clock;
    this.javaClock = clock.asClock();
    this.queue = new DefaultWorkQueue<>(clock, limiter, metrics.enabled() ? name : "", metrics);
    this.lifecycle = new WorkerLifecycle("controller " + name, "fleetkit-controller-" + name + "-", workers,
        this::workLoop, informers.values(), queue::shutDown);
    this.primary = shared != null ? shared.informer(primaryKind)
        : Informer.builder(store, primaryKind).namespace(namespace).resyncPeriod(resync).clock(clock).build();
    primary.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        learn(object);
        if (eventFilter.test(object)) {
          queue.add(ObjectKey.of(object));
        }
      }

      @Override
      public void onUpdate(T oldObject, T newObject) {
        if (eventFilter.test(newObject) || eventFilter.test(oldObject)) {
          queue.add(ObjectKey.of(newObject));
        }
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        if (eventFilter.test(object)) {
          queue.add(ObjectKey.of(object));
        }
      }
    });
    informers.put(primaryKind, primary);
    secondary.forEach((kind, watch) -> addSecondary(kind, watch, namespace, resync));
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private void addSecondary(Class<?> kind, SecondaryWatch watch, String namespace, Duration resync) {
    Informer inf = shared != null ? shared.informer((Class) kind)
        : Informer.builder(store, (Class) kind).namespace(namespace).resyncPeriod(resync).clock(clock).build();
    Lister<?> cache = inf.lister();
    boolean byOwner = watch.mapper() == null;
    Function<ApiObject<?>, Collection<ObjectKey>> map = byOwner ? this::ownerKeys
        : o -> (Collection<ObjectKey>) watch.mapper().apply(o, cache);
    boolean adds = watch.on().contains(WatchEventType.ADDED);
    boolean updates = watch.on().contains(WatchEventType.MODIFIED);
    boolean deletes = watch.on().contains(WatchEventType.DELETED);
    for (ResourceEventHandler<?> h : watch.before()) {
      inf.addEventHandler(h);
    }
    inf.addEventHandler(new ResourceEventHandler() {
      @Override
      public void onAdd(ApiObject object) {
        if (adds) {
          enqueueAll(map.apply(object));
        }
      }

      @Override
      public void onUpdate(ApiObject oldObject, ApiObject newObject) {
        if (!updates) {
          return;
        }
        // an owned object that changed owner must wake both: the old one lost it, the new one gained it
        if (!byOwner || !sameOwners(oldObject, newObject)) {
          enqueueAll(map.apply(oldObject));
        } // else the old object maps to the keys the new one does: queueing them twice changes nothing
        enqueueAll(map.apply(newObject));
      }

      @Override
      public void onDelete(ApiObject object, boolean finalStateUnknown) {
        if (deletes) {
          enqueueAll(map.apply(object));
        }
      }
    });
    informers.put(kind, inf);
  }

  /** Whether {@code a} and {@code b} (the same object's versions) have the same namespace and owner references. */
  private static boolean sameOwners(ApiObject<?> a, ApiObject<?> b) {
    return a.metadata().namespace().equals(b.metadata().namespace())
        && a.metadata().ownerReferences().equals(b.metadata().ownerReferences());
  }

  private void learn(T object) {
    if (primaryKindName == null) {
      primaryKindName = object.kind();
    }
  }

  private void enqueueAll(Collection<ObjectKey> keys) {
    for (ObjectKey k : keys) {
      queue.add(k);
    }
  }

  /** The key of {@code dependent}'s controller owner, if that is (or, by kind name, would be) a primary object. */
  private Collection<ObjectKey> ownerKeys(ApiObject<?> dependent) {
    OwnerReference ref = dependent.metadata().controllerRef();
    if (ref == null) {
      return List.of();
    }
    String ns = dependent.metadata().namespace();
    Optional<T> owner = primary.lister().get(ns, ref.name());
    if (owner.isEmpty() && !ns.isEmpty()) {
      owner = primary.lister().get("", ref.name()); // a cluster-scoped owner
    }
    if (owner.isPresent()) {
      return owner.get().metadata().uid().equals(ref.uid()) ? List.of(ObjectKey.of(owner.get())) : List.of();
    }
    // Owner not cached (deleted, or not seen yet): queue it if the reference names the primary kind.
    return ref.kind().equals(primaryKindName) ? List.of(new ObjectKey(ns, ref.name())) : List.of();
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  public CompletableFuture<Void> start() {
    return lifecycle.start();
  }

  private void workLoop() {
    try {
      while (true) {
        Optional<ObjectKey> key = queue.get();
        if (key.isEmpty()) {
          return;
        }
        process(key.get());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void process(ObjectKey key) {
    ReconcileMetrics m = metrics;
    long start = m == null ? 0 : m.start();
    String outcome = ControllerMetrics.RESULT_SUCCESS;
    String reconcileId = name + "-" + reconcileIds.incrementAndGet();
    TraceSpan span = !tracing.enabled() ? TraceSpan.NOOP : tracing.start(Tracing.SPAN_RECONCILE, (TraceSpan) null)
        .attribute("fleetkit.controller", name).attribute("fleetkit.object", key.toString())
        .attribute("fleetkit.reconcile_id", reconcileId);
    MDC.put(MDC_CONTROLLER, name);
    MDC.put(MDC_OBJECT, key.toString());
    MDC.put(MDC_RECONCILE_ID, reconcileId);
    try {
      Result result;
      try {
        result = reconciler.reconcile(new Context(key, queue.numRequeues(key)));
        if (result == null) {
          throw new NullPointerException("reconciler returned null instead of a Result");
        }
      } catch (VirtualMachineError e) {
        throw e;
      } catch (Throwable e) {
        outcome = ControllerMetrics.RESULT_ERROR;
        LOG.warn("controller {}: reconciling {} failed (retry {}); requeued with backoff", name, key,
            queue.numRequeues(key) + 1, e);
        if (events != EventRecorder.NOOP) {
          primary.lister().get(key).ifPresent(o -> events.event(o, io.fleetkit.api.events.Event.WARNING,
              EventRecorder.BACK_OFF, "Reconcile", "controller " + name + ": reconcile failed, retrying with backoff: "
                  + e.getMessage()));
        }
        queue.addRateLimited(key);
        return;
      }
      switch (result.action()) {
        case DONE -> queue.forget(key);
        case REQUEUE -> {
          outcome = ControllerMetrics.RESULT_REQUEUE;
          queue.addRateLimited(key);
        }
        case REQUEUE_AFTER -> {
          outcome = ControllerMetrics.RESULT_REQUEUE_AFTER;
          queue.forget(key);
          queue.addAfter(key, result.requeueDelay().orElseThrow());
        }
      }
    } finally {
      if (m != null) {
        m.finish(start, outcome);
      }
      if (span != TraceSpan.NOOP) {
        span.attribute("fleetkit.result", outcome);
        if (outcome.equals(ControllerMetrics.RESULT_ERROR)) {
          span.error("reconcile failed");
        }
        span.end();
      }
      MDC.remove(MDC_CONTROLLER);
      MDC.remove(MDC_OBJECT);
      MDC.remove(MDC_RECONCILE_ID);
      queue.done(key);
    }
  }

  @Override
  public boolean runOnce() {
    checkStepping("runOnce");
    Optional<ObjectKey> key = queue.poll();
    if (key.isEmpty()) {
      return false;
    }
    process(key.get());
    return true;
  }

  @Override
  public int runUntilIdle() {
    checkStepping("runUntilIdle");
    int n = 0;
    while (runOnce()) {
      if (++n >= MAX_STEPS_PER_RUN) {
        throw new IllegalStateException("controller " + name + ": runUntilIdle processed " + n
            + " keys without going idle; a reconciler requeues without delay");
      }
    }
    return n;
  }

  private void checkStepping(String op) {
    lifecycle.checkStepping(op);
  }

  @Override
  public void enqueue(ObjectKey key) {
    queue.add(key);
  }

  @Override
  public RateLimitingQueue<ObjectKey> queue() {
    return queue;
  }

  @Override
  public Lister<T> lister() {
    return primary.lister();
  }

  @Override
  public void close() {
    lifecycle.close();
  }

  @Override
  public String toString() {
    return "Controller{" + name + ", " + (workers == 0 ? "stepping" : workers + " workers") + ", " + queue + "}";
  }

  private final class Context implements ReconcileContext<T> {
    private final ObjectKey key;
    private final int retries;

    Context(ObjectKey key, int retries) {
      this.key = key;
      this.retries = retries;
    }

    @Override
    public ObjectKey key() {
      return key;
    }

    @Override
    public Optional<T> object() {
      return primary.lister().get(key);
    }

    @Override
    public Lister<T> lister() {
      return primary.lister();
    }

    @Override
    @SuppressWarnings("unchecked")
    public <O extends ApiObject<O>> Lister<O> lister(Class<O> kind) {
      Informer<?> inf = informers.get(kind);
      if (inf == null) {
        throw new IllegalArgumentException("controller " + name + ": no informer for kind " + kind.getSimpleName()
            + "; watched kinds are " + informers.keySet().stream().map(Class::getSimpleName).toList());
      }
      return (Lister<O>) inf.lister();
    }

    @Override
    public ObjectStore store() {
      return store;
    }

    @Override
    public Clock clock() {
      return javaClock;
    }

    @Override
    public int retries() {
      return retries;
    }

    @Override
    public EventRecorder events() {
      return events;
    }
  }
}
