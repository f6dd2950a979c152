package io.fleetkit.networking.endpointslice;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.core.Endpoints;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.discovery.EndpointSlice;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.InformerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Result;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Mirrors the Endpoints objects of Services without a selector into EndpointSlices, as kube-controller-manager's
 * EndpointSlice mirroring controller ({@code endpointslicemirroring_controller.go}): an Endpoints object is
 * reconciled when it, its Service or one of its mirrored slices changes. Its slices are deleted when the Endpoints
 * object or the Service is gone, when the Service has a selector (the EndpointSlice controller owns its slices then),
 * and when the Endpoints object is labelled {@value Endpoints#LABEL_SKIP_MIRROR}{@code : "true"} or is a leader
 * election lock ({@value Endpoints#LEADER_ANNOTATION}). The writes are planned by
 * {@link EndpointSliceMirroringReconciler}; a subset with more than its maximum of addresses, 1000 by default, is
 * mirrored in part, with a {@value #TOO_MANY_ADDRESSES} Warning event on the Endpoints object. The events of its own
 * slice writes do not sync the Endpoints again ({@link SliceTracker}); other writers' changes to its slices do. A
 * Service with an empty selector counts as one without ({@code selector: {}} reads as none).
 *
 * <p>Lifecycle and threading are the reconcile runtime's ({@link Controller}): threaded by default, or stepping.
 */
public final class EndpointSliceMirroringController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(EndpointSliceMirroringController.class);
  /** The reason of the event recorded when addresses beyond the per-subset maximum were not mirrored. */
  public static final String TOO_MANY_ADDRESSES = "TooManyAddressesToMirror";

  private final EndpointSliceMirroringReconciler planner;
  private final Controller<Endpoints> controller;
  private final Informer<EndpointSlice> slices;
  private final SliceTracker tracker = new SliceTracker();

  private EndpointSliceMirroringController(Builder b) {
    this.planner = new EndpointSliceMirroringReconciler(b.maxEndpointsPerSubset, SliceRules.nameSuffixes(b.seed));
    ControllerBuilder<Endpoints> cb = Controller.builder(b.store, Endpoints.class).name("endpointslice-mirroring")
        .reconciler(this::reconcile)
        .watches(Service.class, EndpointSliceMirroringController::endpointsOfService);
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
    InformerBuilder<EndpointSlice> sb = Informer.builder(b.store, EndpointSlice.class);
    if (b.clock != null) {
      sb.clock(b.clock);
    }
    this.slices = sb.build();
    slices.addEventHandler(tracker.handler(EndpointSliceMirroringController::managed, this::queueEndpoints));
  }

  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** The Service event mapper: a Service without a selector syncs the Endpoints object of its name. */
  private static List<ObjectKey> endpointsOfService(Service s) {
    return hasSelector(s) ? List.of() : List.of(ObjectKey.of(s.metadata().namespace(), s.metadata().name()));
  }

  private static boolean hasSelector(Service s) {
    return !s.spec().selector().isEmpty();
  }

  /** {@code managedByController}: the slice is labelled as this controller's. */
  static boolean managed(EndpointSlice s) {
    return EndpointSliceMirroringReconciler.CONTROLLER_NAME.equals(
        s.metadata().labels().get(EndpointSlice.LABEL_MANAGED_BY));
  }

  /**
   * {@code shouldMirror}: not labelled {@value Endpoints#LABEL_SKIP_MIRROR}{@code : "true"} and not a leader
   * election lock.
   */
  static boolean shouldMirror(Endpoints e) {
    return !"true".equals(e.metadata().labels().get(Endpoints.LABEL_SKIP_MIRROR))
        && !e.metadata().annotations().containsKey(Endpoints.LEADER_ANNOTATION);
  }

  private void queueEndpoints(EndpointSlice s) {
    if (!s.serviceName().isEmpty()) {
      controller.enqueue(ObjectKey.of(s.metadata().namespace(), s.serviceName()));
    }
  }

  /** Starts the slice informer, then the controller; completes when the caches are synced. */
  public CompletableFuture<Void> start() {
    return slices.start().thenCompose(v -> controller.start());
  }

  /** The underlying controller, to step it ({@link Controller#runUntilIdle()}) or enqueue keys. */
  public Controller<Endpoints> controller() {
    return controller;
  }

  /** Stepping mode: reconciles until nothing is queued; returns how many reconciles ran. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  public EndpointSliceMirroringReconciler planner() {
    return planner;
  }

  @Override
  public void close() {
    controller.close();
    slices.close();
  }

  /**
   * {@code endpointSlicesMirroredForService}: the slices in {@code namespace} labelled as mirrored by this
   * controller for the Service {@code name}.
   */
  List<EndpointSlice> mirroredSlices(String namespace, String name) {
    return slices.lister().list(namespace, LabelSelector.of(Map.of(EndpointSlice.LABEL_SERVICE_NAME, name,
        EndpointSlice.LABEL_MANAGED_BY, EndpointSliceMirroringReconciler.CONTROLLER_NAME)));
  }

  /** {@code syncEndpoints}. */
  private Result reconcile(ReconcileContext<Endpoints> ctx) {
    ObjectKey key = ctx.key();
    Endpoints endpoints = ctx.object().orElse(null);
    Service service = ctx.lister(Service.class).get(key.namespace(), key.name()).orElse(null);
    String why = endpoints == null ? "Endpoints not found" : !shouldMirror(endpoints) ? "Endpoints not mirrored"
        : service == null ? "Service not found" : hasSelector(service) ? "Service has a selector" : null;
    if (why != null) {
      List<EndpointSlice> mirrored = mirroredSlices(key.namespace(), key.name());
      if (!mirrored.isEmpty()) {
        LOG.debug("endpointslice-mirroring: {} {}: deleting its {} mirrored slices", why, key, mirrored.size());
      }
      for (EndpointSlice s : mirrored) {
        tracker.delete(ctx.store(), s);
      }
      return Result.done();
    }
    List<EndpointSlice> existing = new ArrayList<>();
    for (EndpointSlice s : mirroredSlices(key.namespace(), key.name())) {
      if (s.metadata().deletionTimestamp() == null) {
        existing.add(s);
      }
    }
    EndpointSliceMirroringReconciler.MirrorPlan plan = planner.plan(endpoints, existing);
    if (plan.addressesSkipped() > 0) {
      LOG.debug("endpointslice-mirroring: {} addresses of Endpoints {} not mirrored", plan.addressesSkipped(), key);
      ctx.events().event(endpoints, Event.WARNING, TOO_MANY_ADDRESSES, "Mirroring", "A max of "
          + planner.maxEndpointsPerSubset() + " addresses can be mirrored to EndpointSlices per Endpoints subset. "
          + plan.addressesSkipped() + " addresses were skipped");
    }
    SlicePlan writes = plan.slices();
    try {
      for (EndpointSlice s : writes.creates()) {
        tracker.write(s, () -> ctx.store().create(s));
      }
      for (EndpointSlice s : writes.updates()) {
        tracker.write(s, () -> ctx.store().update(s));
      }
      for (EndpointSlice s : writes.deletes()) {
        tracker.delete(ctx.store(), s);
      }
    } catch (ConflictException e) {
      LOG.debug("endpointslice-mirroring: conflict writing slices of Endpoints {}: {}", key, e.getMessage());
      return Result.requeue();
    }
    return Result.done();
  }


  /** Configures the controller. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private int maxEndpointsPerSubset = Endpoints.MAX_ADDRESSES;
    private boolean stepping;
    private int workers = 1;
    private long seed = 1;
    private @Nullable TimerClock clock;
    private @Nullable EventRecorder events;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** {@code --mirroring-max-endpoints-per-subset}, default 1000 (1..1000). */
    public Builder maxEndpointsPerSubset(int n) {
      this.maxEndpointsPerSubset = n;
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

    /** Where the {@value #TOO_MANY_ADDRESSES} events go; none by default. The reconcile runtime makes it best effort
     * ({@link EventRecorder#bestEffort}).
     *
     * @throws IllegalStateException if a recorder was already given
     */
    public Builder events(EventRecorder recorder) {
      Objects.requireNonNull(recorder, "recorder");
      if (events != null) {
        throw new IllegalStateException("EndpointSliceMirroringController: events was already set to " + events);
      }
      this.events = recorder;
      return this;
    }

    /**
     * @throws IllegalArgumentException if {@code maxEndpointsPerSubset} is outside 1..1000
     */
    public EndpointSliceMirroringController build() {
      return new EndpointSliceMirroringController(this);
    }
  }
}
