package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.FleetKitException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.InformerBuilder;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Result;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every Service's EndpointSlices in the store in line with its pods, as kube-controller-manager's
 * EndpointSlice controller: reconciles a Service when it, one of its pods (by selector) or one of its slices
 * changes; skips ExternalName Services and Services without a selector (their slices are written by users);
 * deletes managed slices whose Service is gone. The events of its own slice writes do not sync the Service again
 * ({@link SliceTracker}, as upstream's {@code EndpointSliceTracker}); other writers' changes to its slices do. The planning is {@link EndpointSliceReconciler}; this class only
 * reads the caches and issues the writes. Between syncs it keeps each Service's selected pods by name, updated from
 * pod events: a sync after a pod event looks up only the pods the events named and hands them to the planner as the
 * change, so one pod changing in a Service of 10,000 pods costs the same as in a Service of ten; the Service's pods
 * are listed in full only when the Service itself changes (and on its first sync). A write conflict requeues the Service; a pod on an unknown node is
 * skipped and the Service retried. Services annotated {@code service.kubernetes.io/topology-mode: Auto} get
 * topology-aware hints from a {@link TopologyCache} fed with the nodes at each of their syncs; after node changes
 * (and periodically with {@link Builder#topologyCheckPeriod}) the Services whose hints the zones' new CPU shares
 * overload are synced again ({@code checkNodeTopologyDistribution}).
 *
 * <p>Events, on the Service, with upstream's reasons and notes: {@value #FAILED_TO_UPDATE_ENDPOINT_SLICES} (Warning)
 * when a sync skipped pods on unknown nodes or a slice write failed ({@code Error updating Endpoint Slices for Service
 * ns/name: <error>}); the topology cache's {@value TopologyCache#REASON_ENABLED} (Normal) when a Service's hints are
 * first populated and {@value TopologyCache#REASON_DISABLED} (Warning) whenever they cannot be allocated or the
 * annotation no longer asks for them, each note ending in {@code , addressType: IPv4}. The hints events of a sync are
 * recorded after its writes were tried, whether or not they succeeded.
 *
 * <p>Lifecycle and threading are the reconcile runtime's ({@link Controller}): threaded by default, or stepping.
 */
public final class EndpointSliceController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EndpointSliceController.class);
  /**
   * The reason of the Warning event recorded on a Service whose sync failed: a slice write failed, or pods were
   * skipped because their node is unknown ({@code syncService}).
   */
  public static final String FAILED_TO_UPDATE_ENDPOINT_SLICES = "FailedToUpdateEndpointSlices";
  /** The action of the controller's events (kube's legacy events have none). */
  static final String ACTION = "Sync";

  private final EndpointSliceReconciler planner;
  private final TopologyCache topologyCache = new TopologyCache();
  /**
   * The queue key of the topology check ({@code topologyQueue}'s item): cluster-scoped, so no Service (always
   * namespaced) has it.
   */
  static final ObjectKey TOPOLOGY_CHECK = ObjectKey.of("topology-check");

  private final Controller<Service> controller;
  private final Informer<Node> nodes;
  private final Informer<EndpointSlice> slices;
  private final SliceTracker tracker = new SliceTracker();
  private final @org.jspecify.annotations.Nullable Duration topologyCheckPeriod;
  /** Per namespace, per Service name: the Service's selected pods between syncs. */
  private final Map<String, Map<String, SelectedPods>> selected = new ConcurrentHashMap<>();
  private final AtomicLong writes = new AtomicLong();

  private EndpointSliceController(Builder b) {
    this.planner = new EndpointSliceReconciler(b.maxEndpointsPerSlice, SliceRules.CONTROLLER_NAME, true,
        SliceRules.nameSuffixes(b.seed), topologyCache);
    ControllerBuilder<Service> cb = Controller.builder(b.store, Service.class).name("endpointslice")
        .reconciler(this::reconcile)
        .watches(Pod.class, this::servicesTouched);
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
    this.topologyCheckPeriod = b.topologyCheckPeriod;
    InformerBuilder<Node> nb = Informer.builder(b.store, Node.class);
    if (b.clock != null) {
      nb.clock(b.clock);
    }
    this.nodes = nb.build();
    InformerBuilder<EndpointSlice> sb = Informer.builder(b.store, EndpointSlice.class);
    if (b.clock != null) {
      sb.clock(b.clock);
    }
    this.slices = sb.build();
    slices.addEventHandler(tracker.handler(this::managed, this::queueService));
    nodes.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(Node node) {
        controller.enqueue(TOPOLOGY_CHECK);
      }

      @Override
      public void onUpdate(Node oldNode, Node newNode) {
        // addNode/updateNode/deleteNode: only readiness and zone changes move the zones' CPU shares enough to matter
        if (oldNode.isReady() != newNode.isReady() || !Objects.equals(
            oldNode.metadata().labels().get(SliceRules.LABEL_ZONE), newNode.metadata().labels().get(SliceRules.LABEL_ZONE))) {
          controller.enqueue(TOPOLOGY_CHECK);
        }
      }

      @Override
      public void onDelete(Node node, boolean finalStateUnknown) {
        controller.enqueue(TOPOLOGY_CHECK);
      }
    });
  }

  private boolean managed(EndpointSlice s) {
    return planner.controllerName().equals(s.metadata().labels().get(EndpointSlice.LABEL_MANAGED_BY));
  }

  private void queueService(EndpointSlice s) {
    if (!s.serviceName().isEmpty()) {
      controller.enqueue(ObjectKey.of(s.metadata().namespace(), s.serviceName()));
    }
  }

  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * Starts the informers (and workers when threaded); completes when the caches are synced. The node cache syncs
   * first, so no sync sees pods on nodes not yet listed.
   */
  public CompletableFuture<Void> start() {
    return CompletableFuture.allOf(nodes.start(), slices.start()).thenCompose(v -> controller.start()).thenRun(() -> {
      if (topologyCheckPeriod != null) {
        controller.enqueue(TOPOLOGY_CHECK);
      }
    });
  }

  /** The underlying controller, to step it ({@link Controller#runUntilIdle()}) or enqueue keys. */
  public Controller<Service> controller() {
    return controller;
  }

  /** Stepping mode: reconciles until nothing is queued; returns how many reconciles ran. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  public EndpointSliceReconciler planner() {
    return planner;
  }

  /** How many slice writes (creates, updates, deletes) the syncs have planned so far. */
  public long slicesWritten() {
    return writes.get();
  }

  @Override
  public void close() {
    controller.close();
    nodes.close();
    slices.close();
  }

  /**
   * {@code checkNodeTopologyDistribution}: gives the topology cache the current nodes and queues every Service whose
   * hints the new zone shares overload (their sync re-evaluates the hints: redistributes them, or removes them with
   * an event when no allocation within the threshold exists). Runs after node changes and, with
   * {@link Builder#topologyCheckPeriod}, periodically.
   *
   * @return the Services queued
   */
  List<ObjectKey> checkNodeTopologyDistribution() {
    topologyCache.setNodes(nodes.lister().list());
    List<ObjectKey> out = new ArrayList<>();
    for (String key : topologyCache.overloadedServices()) {
      ObjectKey k = ObjectKey.parse(key);
      LOG.debug("endpointslice: queuing Service {} after a node change due to overloading", k);
      controller.enqueue(k);
      out.add(k);
    }
    return out;
  }

  /** The topology cache (hints of {@code topology-mode: Auto} Services). */
  TopologyCache topologyCache() {
    return topologyCache;
  }

  /**
   * The pod event mapper (called with the old and the new pod of an update, and the deleted pod): the Services whose
   * selector matches it, each remembering the pod's name for its next sync. Services not synced yet have no
   * selected-pods state and need no mark: their first sync lists all their pods.
   */
  private List<ObjectKey> servicesTouched(Pod pod) {
    Map<String, SelectedPods> inNamespace = selected.get(pod.metadata().namespace());
    if (inNamespace == null) {
      return List.of();
    }
    List<ObjectKey> out = new ArrayList<>(1);
    inNamespace.forEach((name, state) -> {
      if (state.touch(pod)) {
        out.add(ObjectKey.of(pod.metadata().namespace(), name));
      }
    });
    return out;
  }

  private void forgetSelected(ObjectKey key) {
    Map<String, SelectedPods> inNamespace = selected.get(key.namespace());
    if (inNamespace != null) {
      inNamespace.remove(key.name());
    }
  }

  private Result reconcile(ReconcileContext<Service> ctx) {
    ObjectKey key = ctx.key();
    if (key.equals(TOPOLOGY_CHECK)) {
      checkNodeTopologyDistribution();
      return topologyCheckPeriod == null ? Result.done() : Result.requeueAfter(topologyCheckPeriod);
    }
    Lister<EndpointSlice> sliceLister = slices.lister();
    List<EndpointSlice> existing = new ArrayList<>();
    for (EndpointSlice s : sliceLister.list(key.namespace(), LabelSelector.of(Map.of(
        EndpointSlice.LABEL_SERVICE_NAME, key.name(), EndpointSlice.LABEL_MANAGED_BY, planner.controllerName())))) {
      if (s.metadata().deletionTimestamp() == null) { // dropEndpointSlicesPendingDeletion
        existing.add(s);
      }
    }
    Service service = ctx.object().orElse(null);
    if (service == null) {
      forgetSelected(key);
      planner.forget(key.namespace(), key.name());
      for (EndpointSlice s : existing) {
        tracker.delete(ctx.store(), s);
      }
      writes.addAndGet(existing.size());
      return Result.done();
    }
    if (service.spec().type() == ServiceType.ExternalName || service.spec().selector().isEmpty()) {
      forgetSelected(key);
      return Result.done();
    }
    SelectedPods state = selected.computeIfAbsent(key.namespace(), ns -> new ConcurrentHashMap<>())
        .computeIfAbsent(key.name(), n -> new SelectedPods(key.namespace()));
    SelectedPods.Changes pods = state.sync(service, ctx.lister(Pod.class));
    Lister<Node> nodeCache = nodes.lister();
    if (EndpointSliceReconciler.hintsEnabled(service.metadata().annotations())) {
      topologyCache.setNodes(nodeCache.list());
    }
    SlicePlan plan = planner.plan(service, pods.pods(), pods.changed(), name -> nodeCache.get("", name).orElse(null),
        existing, ctx.now());
    writes.addAndGet(plan.writes());
    String writeError = finalizeWrites(ctx, service, plan);
    for (TopologyCache.HintEvent e : plan.events()) {
      ctx.events().event(service, e.type(), e.reason(), ACTION, e.message());
    }
    List<String> errors = new ArrayList<>(plan.errors());
    if (writeError != null) {
      errors.add(writeError);
    }
    if (!errors.isEmpty()) {
      LOG.debug("endpointslice: Service {}: {}", key, errors);
      ctx.events().event(service, Event.WARNING, FAILED_TO_UPDATE_ENDPOINT_SLICES, ACTION,
          "Error updating Endpoint Slices for Service " + key.namespace() + "/" + key.name() + ": "
              + aggregate(errors));
    }
    if (writeError != null) {
      return Result.requeue();
    }
    if (!plan.errors().isEmpty()) {
      return Result.requeueAfter(Duration.ofSeconds(1));
    }
    return Result.done();
  }

  /**
   * {@code finalize}'s writes: creates, updates, deletes, stopping at the first that fails (a slice already gone
   * counts as deleted).
   *
   * @return {@code null}, or the failed write's error with upstream's wording
   */
  private @org.jspecify.annotations.Nullable String finalizeWrites(ReconcileContext<Service> ctx, Service service,
      SlicePlan plan) {
    String svc = service.metadata().namespace() + "/" + service.metadata().name();
    for (EndpointSlice s : plan.creates()) {
      try {
        tracker.write(s, () -> ctx.store().create(s));
      } catch (FleetKitException e) {
        return "failed to create EndpointSlice for Service " + svc + ": " + e.getMessage();
      }
    }
    for (EndpointSlice s : plan.updates()) {
      try {
        tracker.write(s, () -> ctx.store().update(s));
      } catch (FleetKitException e) {
        return "failed to update " + s.metadata().name() + " EndpointSlice for Service " + svc + ": " + e.getMessage();
      }
    }
    for (EndpointSlice s : plan.deletes()) {
      try {
        tracker.delete(ctx.store(), s);
      } catch (FleetKitException e) {
        return "failed to delete " + s.metadata().name() + " EndpointSlice for Service " + svc + ": " + e.getMessage();
      }
    }
    return null;
  }

  /**
   * The text of apimachinery's error aggregate ({@code utilerrors.NewAggregate(..).Error()}): one message as it is,
   * several distinct ones in brackets, comma-separated, duplicates dropped.
   */
  static String aggregate(List<String> messages) {
    List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(messages));
    return distinct.size() == 1 ? distinct.get(0) : "[" + String.join(", ", distinct) + "]";
  }


  /** Configures the controller. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private int maxEndpointsPerSlice = EndpointSliceReconciler.DEFAULT_MAX_ENDPOINTS_PER_SLICE;
    private boolean stepping;
    private int workers = 1;
    private long seed = 1;
    private @org.jspecify.annotations.Nullable TimerClock clock;
    private @org.jspecify.annotations.Nullable Duration topologyCheckPeriod;
    private @org.jspecify.annotations.Nullable EventRecorder events;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** {@code --max-endpoints-per-slice}, default 100. */
    public Builder maxEndpointsPerSlice(int n) {
      this.maxEndpointsPerSlice = n;
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

    /** Seed of the random slice-name suffixes. */
    public Builder seed(long v) {
      this.seed = v;
      return this;
    }

    public Builder clock(TimerClock c) {
      this.clock = c;
      return this;
    }

    /**
     * Also re-checks the zones' CPU shares against the hinted Services every {@code period} (on the controller's
     * clock), queuing the overloaded ones, besides the check after every node added, deleted, or changed in
     * readiness or zone; default none (node events only, as kube-controller-manager).
     *
     * @throws IllegalArgumentException if {@code period} is not positive
     */
    public Builder topologyCheckPeriod(Duration period) {
      if (period.isNegative() || period.isZero()) {
        throw new IllegalArgumentException("EndpointSliceController: topologyCheckPeriod must be positive but was "
            + period);
      }
      this.topologyCheckPeriod = period;
      return this;
    }

    /**
     * Where the controller's events go ({@value #FAILED_TO_UPDATE_ENDPOINT_SLICES} and the topology-aware hints'
     * {@value TopologyCache#REASON_ENABLED} and {@value TopologyCache#REASON_DISABLED}, on the Service); none by
     * default. The reconcile runtime makes it best effort ({@link EventRecorder#bestEffort}).
     *
     * @throws IllegalStateException if a recorder was already given
     */
    public Builder events(EventRecorder recorder) {
      Objects.requireNonNull(recorder, "recorder");
      if (events != null) {
        throw new IllegalStateException("EndpointSliceController: events was already set to " + events);
      }
      this.events = recorder;
      return this;
    }

    public EndpointSliceController build() {
      return new EndpointSliceController(this);
    }
  }
}
