package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.LoadBalancerStatus;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceStatus;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.RateLimiter;
import io.fleetkit.reconcile.RateLimiters;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The service controller of a cloud provider ({@code k8s.io/cloud-provider/controllers/service/controller.go}): for
 * each Service that {@linkplain LoadBalancerRules#wantsLoadBalancer wants a load balancer} it puts the
 * {@value Service#LOAD_BALANCER_CLEANUP_FINALIZER} finalizer on the Service, asks the {@link LoadBalancerProvider} to
 * ensure one with the nodes of the {@linkplain LoadBalancerRules#inStableNodeSet stable node set} as backends, and
 * writes the result to {@code status.loadBalancer}. A Service that no longer wants one, or is being deleted with the
 * finalizer, has its load balancer deleted, its status cleared and the finalizer removed. A Service is synced when it
 * first wants a load balancer or {@linkplain LoadBalancerRules#needsCleanup needs cleanup}, and again when a change
 * {@linkplain LoadBalancerRules#needsUpdate calls for it}; a node added, deleted or {@linkplain
 * LoadBalancerRules#shouldSyncUpdatedNode changed in a way that counts} updates the backends of every load balancer
 * whose stable node set changed ({@code syncNodes}). A failed sync is retried with backoff, or after the delay the
 * provider asked for ({@link LoadBalancerException#retryAfter}).
 *
 * <p>Events are upstream's: {@value #ENSURING}, {@value #ENSURED}, {@value #DELETING}, {@value #DELETED},
 * {@value #UPDATED} (Normal); {@value #SYNC_FAILED}, {@value #UPDATE_FAILED}, {@value #DELETE_FAILED},
 * {@value #UNAVAILABLE} (Warning).
 *
 * <p>Lifecycle and threading are the reconcile runtime's ({@link Controller}): threaded by default, or stepping.
 */
public final class ServiceLoadBalancerController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceLoadBalancerController.class);
  public static final String ENSURING = "EnsuringLoadBalancer";
  public static final String ENSURED = "EnsuredLoadBalancer";
  public static final String DELETING = "DeletingLoadBalancer";
  public static final String DELETED = "DeletedLoadBalancer";
  public static final String UPDATED = "UpdatedLoadBalancer";
  public static final String SYNC_FAILED = "SyncLoadBalancerFailed";
  public static final String UPDATE_FAILED = "UpdateLoadBalancerFailed";
  public static final String DELETE_FAILED = "DeleteLoadBalancerFailed";
  public static final String UNAVAILABLE = "UnAvailableLoadBalancer";
  private static final String ACTION = "SyncLoadBalancer";
  static final int MIN_RETRY_DELAY_SECONDS = 5;
  static final int MAX_RETRY_DELAY_SECONDS = 300;
  /** {@code minRetryDelay}: the first backoff of a failed sync. */
  public static final Duration MIN_RETRY_DELAY = Duration.ofSeconds(MIN_RETRY_DELAY_SECONDS);
  /** {@code maxRetryDelay}: the longest backoff. */
  public static final Duration MAX_RETRY_DELAY = Duration.ofSeconds(MAX_RETRY_DELAY_SECONDS);

  /** What a sync did: {@code loadBalancerOperation}. */
  enum Operation { DELETE, ENSURE }

  private final LoadBalancerProvider provider;
  private final Controller<Service> controller;
  /**
   * The last state seen of each Service synced ({@code serviceCache}), whether the sync succeeded or not: what a
   * deletion without finalizer deletes, and the old side of {@link LoadBalancerRules#needsUpdate} for its next change.
   */
  private final Map<ObjectKey, Service> cache = new ConcurrentHashMap<>();
  /** The backends each load balancer was last given ({@code lastSyncedNodes}). */
  private final Map<ObjectKey, List<Node>> lastSyncedNodes = new ConcurrentHashMap<>();
  /** Failed syncs in a row, per Service: its backoff ({@code NewTypedItemExponentialFailureRateLimiter}). */
  private final RateLimiter<ObjectKey> failures = RateLimiters.itemExponential(MIN_RETRY_DELAY, MAX_RETRY_DELAY);
  /** When the retry of a failed sync is due, per Service. */
  private final Map<ObjectKey, Instant> retryAt = new ConcurrentHashMap<>();
  /** Set by a node event that calls for a node sync, cleared when it has queued the load balancers' Services. */
  private final AtomicBoolean nodesChanged = new AtomicBoolean();

  private ServiceLoadBalancerController(Builder b) {
    this.provider = Objects.requireNonNull(b.provider, "provider");
    ControllerBuilder<Service> cb = Controller.builder(b.store, Service.class).name("service-lb")
        .reconciler(this::reconcile)
        .eventFilter(s -> LoadBalancerRules.wantsLoadBalancer(s) || LoadBalancerRules.needsCleanup(s)
            || cache.containsKey(ObjectKey.of(s)))
        .watches(Node.class, EnumSet.allOf(WatchEventType.class), (n, lister) -> nodeSyncKeys())
        .handler(Node.class, new ResourceEventHandler<>() {
          @Override
          public void onAdd(Node node) {
            nodesChanged.set(true);
          }

          @Override
          public void onUpdate(Node old, Node now) {
            if (LoadBalancerRules.shouldSyncUpdatedNode(old, now)) {
              nodesChanged.set(true);
            }
          }

          @Override
          public void onDelete(Node node, boolean finalStateUnknown) {
            nodesChanged.set(true);
          }
        });
    if (b.clock != null) {
      cb.clock(b.clock);
    }
    if (b.events != null) {
      cb.events(b.events);
    }
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(b.workers);
    }
    this.controller = cb.build();
  }

  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Starts the controller; completes when its caches are synced. */
  public CompletableFuture<Void> start() {
    return controller.start();
  }

  /** The underlying controller, to step it ({@link Controller#runUntilIdle()}) or enqueue keys. */
  public Controller<Service> controller() {
    return controller;
  }

  /** Stepping mode: reconciles until nothing is queued; returns how many reconciles ran. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  @Override
  public void close() {
    controller.close();
  }

  /**
   * {@code syncNodes}: looks at the backends of every load balancer now, whatever changed: each whose stable node
   * set differs from the one it was last given is updated (at the controller's next step in stepping mode).
   */
  public void syncNodes() {
    nodesChanged.set(true);
    for (ObjectKey k : nodeSyncKeys()) {
      controller.enqueue(k);
    }
  }

  /** After a node event that calls for it, the Services whose load balancers the node sync looks at. */
  private List<ObjectKey> nodeSyncKeys() {
    if (!nodesChanged.getAndSet(false)) {
      return List.of();
    }
    List<ObjectKey> keys = new ArrayList<>();
    for (Map.Entry<ObjectKey, Service> e : cache.entrySet()) {
      if (LoadBalancerRules.wantsLoadBalancer(e.getValue())) {
        keys.add(e.getKey());
      }
    }
    return keys;
  }

  /** {@code syncService}. */
  private Result reconcile(ReconcileContext<Service> ctx) {
    ObjectKey key = ctx.key();
    Service service = ctx.object().orElse(null);
    if (service == null) {
      return processServiceDeletion(ctx, key);
    }
    if (service.metadata().deletionTimestamp() != null && !cache.containsKey(key)
        && !service.metadata().finalizers().contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER)) {
      return Result.done(); // going away with no load balancer of ours: nothing to ensure or clean up
    }
    Service last = cache.get(key);
    Instant retry = retryAt.get(key);
    boolean due = LoadBalancerRules.needsCleanup(service)
        || (last == null ? LoadBalancerRules.wantsLoadBalancer(service) : LoadBalancerRules.needsUpdate(last, service))
        || (retry != null && !ctx.now().isBefore(retry));
    if (due) {
      return processServiceCreateOrUpdate(ctx, key, service);
    }
    if (retry != null) {
      return Result.requeueAfter(Duration.between(ctx.now(), retry)); // the retry comes at its time
    }
    return last != null && LoadBalancerRules.wantsLoadBalancer(service) ? nodeSyncService(ctx, key, service)
        : Result.done();
  }

  /**
   * {@code processServiceCreateOrUpdate}. A failure is retried after the provider's delay, else with backoff
   * ({@value #MIN_RETRY_DELAY_SECONDS} s doubling to {@value #MAX_RETRY_DELAY_SECONDS} s per Service); meanwhile only
   * a change that calls for it syncs the Service sooner, as upstream's queue holds it.
   */
  private Result processServiceCreateOrUpdate(ReconcileContext<Service> ctx, ObjectKey key, Service service) {
    Service cached = cache.get(key);
    if (cached != null && !cached.metadata().uid().equals(service.metadata().uid())) {
      // deleted and created again without the finalizer in between: the old Service's load balancer goes first
      Result r = processLoadBalancerDelete(ctx, key, cached);
      if (r != null) {
        return r;
      }
    }
    cache.put(key, service); // also the old side of the next change, whether this sync succeeds or not
    Operation op;
    try {
      op = syncLoadBalancerIfNeeded(ctx, service);
    } catch (LoadBalancerException e) {
      ctx.events().event(service, Event.WARNING, SYNC_FAILED, ACTION, "Error syncing load balancer: " + e.getMessage());
      LOG.debug("service-lb: {}: {}", key, e.getMessage());
      return retryLater(ctx, key, e);
    } catch (ConflictException e) {
      LOG.debug("service-lb: {}: conflict writing the Service, retrying: {}", key, e.getMessage());
      return retryLater(ctx, key, null);
    } catch (ValidationException e) {
      // a write the store refused: upstream's failed patch, reported and retried the same way
      ctx.events().event(service, Event.WARNING, SYNC_FAILED, ACTION, "Error syncing load balancer: "
          + e.getMessage());
      return retryLater(ctx, key, null);
    }
    failures.forget(key);
    retryAt.remove(key);
    if (op == Operation.DELETE) {
      cache.remove(key);
      lastSyncedNodes.remove(key);
    }
    return Result.done();
  }

  /**
   * The retry of a failed sync: after the delay {@code e} asks for ({@code RetryError}, the failure count left as
   * it is), else after the Service's next backoff ({@code AddRateLimited}).
   */
  private Result retryLater(ReconcileContext<Service> ctx, ObjectKey key, @Nullable LoadBalancerException e) {
    Duration delay = e == null ? null : e.retryAfter().orElse(null);
    if (delay == null) {
      delay = failures.when(key);
    }
    retryAt.put(key, ctx.now().plus(delay));
    return Result.requeueAfter(delay);
  }

  /**
   * {@code syncLoadBalancerIfNeeded}: deletes the load balancer of a Service that does not want one or needs cleanup,
   * else ensures it; then writes the status when it changed.
   *
   * @throws LoadBalancerException when the provider fails
   * @throws ConflictException when a write of the Service conflicts
   */
  Operation syncLoadBalancerIfNeeded(ReconcileContext<Service> ctx, Service service) {
    ObjectStore store = ctx.store();
    LoadBalancerStatus previous = service.status().loadBalancer();
    LoadBalancerStatus next;
    Operation op;
    Service current = service;
    // a Service being deleted without the finalizer cannot take it any more (the API server refuses a new finalizer
    // on an object being deleted, where upstream would retry forever): its load balancer goes instead
    boolean goingWithoutFinalizer = service.metadata().deletionTimestamp() != null
        && !service.metadata().finalizers().contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER);
    if (!LoadBalancerRules.wantsLoadBalancer(service) || LoadBalancerRules.needsCleanup(service)
        || goingWithoutFinalizer) {
      op = Operation.DELETE;
      next = null;
      if (provider.get(service).isPresent()) {
        ctx.events().event(service, Event.NORMAL, DELETING, ACTION, "Deleting load balancer");
        provider.ensureDeleted(service);
      }
      current = removeFinalizer(store, current);
      ctx.events().event(service, Event.NORMAL, DELETED, ACTION, "Deleted load balancer");
    } else {
      op = Operation.ENSURE;
      ctx.events().event(service, Event.NORMAL, ENSURING, ACTION, "Ensuring load balancer");
      current = addFinalizer(store, current);
      next = ensureLoadBalancer(ctx, service);
      ctx.events().event(service, Event.NORMAL, ENSURED, ACTION, "Ensured load balancer");
    }
    if (current != null && !LoadBalancerRules.statusEqual(previous, next)) {
      try {
        store.updateStatus(current.withStatus(next == null || next.ingress().isEmpty() ? ServiceStatus.EMPTY
            : new ServiceStatus(next)));
      } catch (NotFoundException e) {
        // gone right after the finalizer was removed: nothing left to write
      }
    }
    return op;
  }

  /** {@code ensureLoadBalancer}: the provider's answer for the stable node set, which is remembered. */
  private LoadBalancerStatus ensureLoadBalancer(ReconcileContext<Service> ctx, Service service) {
    List<Node> nodes = LoadBalancerRules.stableNodeSet(ctx.lister(Node.class).list());
    if (nodes.isEmpty()) {
      ctx.events().event(service, Event.WARNING, UNAVAILABLE, ACTION, "There are no available nodes for LoadBalancer");
    }
    lastSyncedNodes.put(ctx.key(), nodes);
    return provider.ensure(service, nodes);
  }

  /**
   * {@code nodeSyncService}: points the load balancer at the stable node set when that differs (names or provider
   * IDs) from the one it was last given; a failure syncs the Service again with backoff.
   */
  private Result nodeSyncService(ReconcileContext<Service> ctx, ObjectKey key, Service service) {
    List<Node> now = LoadBalancerRules.stableNodeSet(ctx.lister(Node.class).list());
    List<Node> old = LoadBalancerRules.stableNodeSet(lastSyncedNodes.getOrDefault(key, List.of()));
    lastSyncedNodes.put(key, now);
    if (LoadBalancerRules.nodesSufficientlyEqual(old, now)) {
      return Result.done();
    }
    try {
      provider.update(service, now);
    } catch (LoadBalancerException e) {
      if (provider.get(service).isEmpty()) {
        return Result.done(); // only an error while the load balancer exists
      }
      ctx.events().event(service, Event.WARNING, UPDATE_FAILED, ACTION, "Error updating load balancer with new hosts "
          + loggableNodeNames(now) + " [node names limited, total number of nodes: " + now.size() + "], error: "
          + e.getMessage());
      // upstream adds the Service to its queue again at once (servicesToRetry): a whole sync follows now
      return processServiceCreateOrUpdate(ctx, key, service);
    }
    if (now.isEmpty()) {
      ctx.events().event(service, Event.WARNING, UNAVAILABLE, ACTION, "There are no available nodes for LoadBalancer");
    } else {
      ctx.events().event(service, Event.NORMAL, UPDATED, ACTION, "Updated load balancer with new hosts");
    }
    return Result.done();
  }

  /** {@code processServiceDeletion}: a Service gone without the finalizer has its last known load balancer deleted. */
  private Result processServiceDeletion(ReconcileContext<Service> ctx, ObjectKey key) {
    Service cached = cache.get(key);
    if (cached == null) {
      return Result.done();
    }
    Result r = processLoadBalancerDelete(ctx, key, cached);
    if (r != null) {
      return r;
    }
    cache.remove(key);
    failures.forget(key);
    retryAt.remove(key);
    lastSyncedNodes.remove(key);
    return Result.done();
  }

  /** {@code processLoadBalancerDelete}; {@code null} when done, else the retry. */
  private @Nullable Result processLoadBalancerDelete(ReconcileContext<Service> ctx, ObjectKey key, Service service) {
    if (!LoadBalancerRules.wantsLoadBalancer(service)) {
      return null;
    }
    ctx.events().event(service, Event.NORMAL, DELETING, ACTION, "Deleting load balancer");
    try {
      provider.ensureDeleted(service);
    } catch (LoadBalancerException e) {
      ctx.events().event(service, Event.WARNING, DELETE_FAILED, ACTION, "Error deleting load balancer: "
          + e.getMessage());
      return retryLater(ctx, key, e);
    }
    ctx.events().event(service, Event.NORMAL, DELETED, ACTION, "Deleted load balancer");
    return null;
  }

  /** {@code addFinalizer}: the Service as stored after the write (or as given when it has the finalizer). */
  static Service addFinalizer(ObjectStore store, Service service) {
    if (service.metadata().finalizers().contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER)) {
      return service;
    }
    ObjectMeta m = service.metadata().toBuilder().finalizer(Service.LOAD_BALANCER_CLEANUP_FINALIZER).build();
    return store.update(service.withMetadata(m));
  }

  /** {@code removeFinalizer}; {@code null} when the Service is gone (its deletion waited only for this finalizer). */
  static @Nullable Service removeFinalizer(ObjectStore store, Service service) {
    if (!service.metadata().finalizers().contains(Service.LOAD_BALANCER_CLEANUP_FINALIZER)) {
      return service;
    }
    List<String> rest = new ArrayList<>(service.metadata().finalizers());
    rest.remove(Service.LOAD_BALANCER_CLEANUP_FINALIZER);
    boolean deleting = service.metadata().deletionTimestamp() != null;
    try {
      Service after = store.update(service.withMetadata(service.metadata().toBuilder().finalizers(rest).build()));
      return deleting && rest.isEmpty() ? null : after;
    } catch (NotFoundException e) {
      return null;
    }
  }

  /** {@code loggableNodeNames}: up to 20 names, sorted, then how many more. */
  static List<String> loggableNodeNames(List<Node> nodes) {
    List<String> names = new ArrayList<>();
    for (int i = 0; i < Math.min(20, nodes.size()); i++) {
      names.add(nodes.get(i).name());
    }
    names.sort(null);
    if (nodes.size() > 20) {
      names.add("<" + (nodes.size() - 20) + " more>");
    }
    return names;
  }

  /** Configures the controller. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private @Nullable LoadBalancerProvider provider;
    private boolean stepping;
    private int workers = 1;
    private @Nullable TimerClock clock;
    private @Nullable EventRecorder events;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The cloud's side (required). */
    public Builder provider(LoadBalancerProvider p) {
      this.provider = Objects.requireNonNull(p, "provider");
      return this;
    }

    public Builder stepping() {
      this.stepping = true;
      return this;
    }

    public Builder workers(int n) {
      this.workers = n;
      return this;
    }

    public Builder clock(TimerClock c) {
      this.clock = c;
      return this;
    }

    /** Where the controller's events go; none by default. The reconcile runtime makes it best effort
     * ({@link EventRecorder#bestEffort}).
     *
     * @throws IllegalStateException if a recorder was already given
     */
    public Builder events(EventRecorder recorder) {
      Objects.requireNonNull(recorder, "recorder");
      if (events != null) {
        throw new IllegalStateException("ServiceLoadBalancerController: events was already set to " + events);
      }
      this.events = recorder;
      return this;
    }

    /**
     * @throws NullPointerException if no provider was given
     */
    public ServiceLoadBalancerController build() {
      return new ServiceLoadBalancerController(this);
    }
  }
}
