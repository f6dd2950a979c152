package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.core.ServiceType;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Result;
import io.fleetkit.api.time.TimerClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps every Service's EndpointSlices in the store in line with its pods, as kube-controller-manager's
 * EndpointSlice controller: reconciles a Service when it, one of its pods (by selector) or one of its slices
 * changes; skips ExternalName Services and Services without a selector (their slices are written by users);
 * deletes managed slices whose Service is gone. The planning is {@link EndpointSliceReconciler}; this class only
 * reads the caches and issues the writes. Between syncs it keeps each Service's selected pods by name, updated from
 * pod events: a sync after a pod event looks up only the pods the events named and hands them to the planner as the
 * change, so one pod changing in a Service of 10,000 pods costs the same as in a Service of ten; the Service's pods
 * are listed in full only when the Service itself changes (and on its first sync). A write conflict requeues the Service; a pod on an unknown node is
 * skipped and the Service retried. Services annotated {@code service.kubernetes.io/topology-mode: Auto} get
 * topology-aware hints from a {@link TopologyCache} fed with the nodes at each of their syncs.
 *
 * <p>Lifecycle and threading are the reconcile runtime's ({@link Controller}): threaded by default, or stepping.
 */
public final class EndpointSliceController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EndpointSliceController.class);
  private static final String SUFFIX_CHARS = "bcdfghjklmnpqrstvwxz2456789";

  private final EndpointSliceReconciler planner;
  private final TopologyCache topologyCache = new TopologyCache();
  private final Controller<Service> controller;
  /** Per namespace, per Service name: the Service's selected pods between syncs. */
  private final Map<String, Map<String, SelectedPods>> selected = new ConcurrentHashMap<>();
  private final AtomicLong writes = new AtomicLong();

  private EndpointSliceController(Builder b) {
    Random random = new Random(b.seed);
    this.planner = new EndpointSliceReconciler(b.maxEndpointsPerSlice, SliceRules.CONTROLLER_NAME, true,
        () -> {
          StringBuilder sb = new StringBuilder(5);
          synchronized (random) {
            for (int i = 0; i < 5; i++) {
              sb.append(SUFFIX_CHARS.charAt(random.nextInt(SUFFIX_CHARS.length())));
            }
          }
          return sb.toString();
        }, topologyCache);
    ControllerBuilder<Service> cb = Controller.builder(b.store, Service.class).name("endpointslice")
        .reconciler(this::reconcile)
        .watches(Pod.class, this::servicesTouched)
        .watches(EndpointSlice.class, s -> s.serviceName().isEmpty() ? List.of()
            : List.of(ObjectKey.of(s.metadata().namespace(), s.serviceName())))
        .watches(Node.class, n -> List.of());
    if (b.clock != null) {
      cb.clock(b.clock);
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

  /** Starts the informers (and workers when threaded); completes when the caches are synced. */
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
    Lister<EndpointSlice> sliceLister = ctx.lister(EndpointSlice.class);
    List<EndpointSlice> slices = new ArrayList<>();
    for (EndpointSlice s : sliceLister.list(key.namespace(), LabelSelector.of(Map.of(
        EndpointSlice.LABEL_SERVICE_NAME, key.name(), EndpointSlice.LABEL_MANAGED_BY, planner.controllerName())))) {
      slices.add(s);
    }
    Service service = ctx.object().orElse(null);
    if (service == null) {
      forgetSelected(key);
      planner.forget(key.namespace(), key.name());
      for (EndpointSlice s : slices) {
        deleteQuietly(ctx.store(), s);
      }
      writes.addAndGet(slices.size());
      return Result.done();
    }
    if (service.spec().type() == ServiceType.ExternalName || service.spec().selector().isEmpty()) {
      forgetSelected(key);
      return Result.done();
    }
    SelectedPods state = selected.computeIfAbsent(key.namespace(), ns -> new ConcurrentHashMap<>())
        .computeIfAbsent(key.name(), n -> new SelectedPods(key.namespace()));
    SelectedPods.Changes pods = state.sync(service, ctx.lister(Pod.class));
    Lister<Node> nodes = ctx.lister(Node.class);
    if (EndpointSliceReconciler.hintsEnabled(service.metadata().annotations())) {
      topologyCache.setNodes(nodes.list());
    }
    SlicePlan plan = planner.plan(service, pods.pods(), pods.changed(), name -> nodes.get("", name).orElse(null),
        slices, ctx.now());
    writes.addAndGet(plan.writes());
    try {
      for (EndpointSlice s : plan.creates()) {
        ctx.store().create(s);
      }
      for (EndpointSlice s : plan.updates()) {
        ctx.store().update(s);
      }
      for (EndpointSlice s : plan.deletes()) {
        deleteQuietly(ctx.store(), s);
      }
    } catch (ConflictException e) {
      LOG.debug("endpointslice: conflict writing slices of Service {}: {}", key, e.getMessage());
      return Result.requeue();
    }
    if (!plan.errors().isEmpty()) {
      LOG.debug("endpointslice: Service {}: {}", key, plan.errors());
      return Result.requeueAfter(Duration.ofSeconds(1));
    }
    return Result.done();
  }

  private static void deleteQuietly(ObjectStore store, EndpointSlice s) {
    try {
      store.delete(EndpointSlice.class, s.metadata().namespace(), s.metadata().name());
    } catch (NotFoundException e) {
      // already gone: the desired state
    }
  }

  /** Configures the controller. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private int maxEndpointsPerSlice = EndpointSliceReconciler.DEFAULT_MAX_ENDPOINTS_PER_SLICE;
    private boolean stepping;
    private int workers = 1;
    private long seed = 1;
    private @org.jspecify.annotations.Nullable TimerClock clock;

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

    public EndpointSliceController build() {
      return new EndpointSliceController(this);
    }
  }
}
