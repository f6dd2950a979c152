package io.fleetkit.networking.gateway;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.core.Namespace;
import io.fleetkit.api.core.Secret;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.gateway.Gateway;
import io.fleetkit.api.gateway.GatewayClass;
import io.fleetkit.api.gateway.GatewayClassStatus;
import io.fleetkit.api.gateway.GatewayStatus;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteStatus;
import io.fleetkit.api.gateway.ListenerStatus;
import io.fleetkit.api.gateway.ReferenceGrant;
import io.fleetkit.api.gateway.RouteParentStatus;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.Condition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.Informer;
import io.fleetkit.reconcile.InformerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.Result;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the Gateway API's status back to the store, as a Gateway implementation's controller does: for every
 * GatewayClass whose {@code controllerName} is this controller's, {@code Accepted} and {@code SupportedVersion}
 * (True for FleetKit's own kinds, {@link #BUNDLE_VERSION}; see {@link Builder#crdBundleVersion}); for every Gateway of such a class,
 * its conditions and each listener's conditions, supported kinds and {@code attachedRoutes}; for every HTTPRoute, one
 * {@code status.parents} entry per {@code parentRefs} entry that names such a Gateway (entries written by other
 * controllers are kept, this controller's entries for parents it no longer serves are removed). The status is what
 * {@link GatewayAttachment} computes over the informers' caches. Every condition carries the
 * {@code observedGeneration} of the object it is written on; a condition keeps its {@code lastTransitionTime} while
 * its status stays the same (apimachinery's {@code SetStatusCondition}), else gets the clock's time. An object is
 * written only when its status changes.
 *
 * <p>Status depends on many objects at once (a route's acceptance on listeners of Gateways, a listener's count on
 * routes, references on Services, Secrets, namespaces and ReferenceGrants), so every relevant change queues one sync
 * that recomputes all of it and writes the differences, as upstream implementations rebuild their whole graph. What
 * queues it: a GatewayClass or HTTPRoute added, deleted, or changed in generation (its own status writes do not);
 * a Gateway added, deleted or of a generation the last sync did not see; any change of a Service, Namespace,
 * ReferenceGrant or Secret. A write conflict (the cache was behind) requeues the sync with backoff. A Gateway whose
 * class is missing or another controller's is left alone, and so are route parents naming a Gateway not found.
 *
 * <p>Lifecycle and threading are the reconcile runtime's ({@link Controller}): threaded by default, or stepping.
 */
public final class GatewayStatusController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(GatewayStatusController.class);
  /** The controller name used unless {@link Builder#controllerName} sets another. */
  public static final String DEFAULT_CONTROLLER_NAME = "fleetkit.io/gateway-controller";
  /**
   * The Gateway API release whose kinds FleetKit models ({@code apis/v1} of v1.6.1, unchanged from v1.6.0 and, for
   * the fields FleetKit reads, at the later commit its conformance tests come from): the bundle version of
   * FleetKit's built-in kinds, reported as supported by the {@code SupportedVersion} condition.
   */
  public static final String BUNDLE_VERSION = "v1.6.1";
  /** The bundle versions this controller supports: the releases whose {@code apis/v1} is what FleetKit models. */
  public static final List<String> SUPPORTED_BUNDLE_VERSIONS = List.of("v1.6.0", BUNDLE_VERSION);
  /** The CRD annotation that carries the installed Gateway API version. */
  public static final String BUNDLE_VERSION_ANNOTATION = "gateway.networking.k8s.io/bundle-version";
  /** The queue key of a full sync: cluster-scoped, so no Gateway (always namespaced) has it. */
  static final ObjectKey SYNC = ObjectKey.of("gateway-api-status");

  private final String controllerName;
  /** The {@code SupportedVersion} condition every GatewayClass of ours gets, without generation and time. */
  private final Condition supportedVersion;
  private final Controller<Gateway> controller;
  private final Informer<GatewayClass> classes;
  private final Informer<HTTPRoute> routes;
  /** The generation of each Gateway the last complete sync saw. */
  private final Map<ObjectKey, Long> synced = new ConcurrentHashMap<>();
  private final AtomicLong syncs = new AtomicLong();
  private final AtomicLong writes = new AtomicLong();

  private GatewayStatusController(Builder b) {
    this.controllerName = b.controllerName;
    this.supportedVersion = supportedVersion(b.crdBundleVersion);
    ControllerBuilder<Gateway> cb = Controller.builder(b.store, Gateway.class).name("gateway-status")
        .reconciler(this::reconcile)
        .watches(Service.class, s -> List.of(SYNC))
        .watches(Namespace.class, n -> List.of(SYNC))
        .watches(ReferenceGrant.class, g -> List.of(SYNC))
        .watches(Secret.class, s -> List.of(SYNC));
    if (b.clock != null) {
      cb.clock(b.clock);
    }
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(1);
    }
    this.controller = cb.build();
    this.classes = informer(b, GatewayClass.class);
    this.routes = informer(b, HTTPRoute.class);
  }

  private <T extends ApiObject<T>> Informer<T> informer(Builder b, Class<T> kind) {
    InformerBuilder<T> ib = Informer.builder(b.store, kind);
    if (b.clock != null) {
      ib.clock(b.clock);
    }
    Informer<T> informer = ib.build();
    informer.addEventHandler(new ResourceEventHandler<>() {
      @Override
      public void onAdd(T object) {
        controller.enqueue(SYNC);
      }

      @Override
      public void onUpdate(T oldObject, T newObject) {
        // a status write (ours or another controller's) leaves the generation as it is and changes nothing we read
        if (oldObject.metadata().generation() != newObject.metadata().generation()) {
          controller.enqueue(SYNC);
        }
      }

      @Override
      public void onDelete(T object, boolean finalStateUnknown) {
        controller.enqueue(SYNC);
      }
    });
    return informer;
  }

  /** A builder for a controller on {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Starts the informers (and the worker when threaded); completes when the caches are synced. */
  public CompletableFuture<Void> start() {
    return CompletableFuture.allOf(classes.start(), routes.start()).thenCompose(v -> controller.start())
        .thenRun(() -> controller.enqueue(SYNC));
  }

  /** Stepping mode: reconciles until nothing is queued; returns how many reconciles ran. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** The name this controller writes in route parent statuses and serves GatewayClasses of. */
  public String controllerName() {
    return controllerName;
  }

  /** How many full syncs have run. */
  public long syncs() {
    return syncs.get();
  }

  /** How many status writes the syncs have made. */
  public long statusWrites() {
    return writes.get();
  }

  @Override
  public void close() {
    controller.close();
    classes.close();
    routes.close();
  }

  private Result reconcile(ReconcileContext<Gateway> ctx) {
    if (!ctx.key().equals(SYNC)) {
      Gateway g = ctx.object().orElse(null);
      Long seen = synced.get(ctx.key());
      if (g != null && seen != null && seen == g.metadata().generation()) {
        return Result.done(); // a status write, or a change of metadata no status depends on
      }
    }
    return sync(ctx) ? Result.done() : Result.requeue();
  }

  /** One full sync; {@code false} when a write met a conflict (the caches were behind). */
  private boolean sync(ReconcileContext<Gateway> ctx) {
    syncs.incrementAndGet();
    Instant now = ctx.now();
    Set<String> ourClasses = new HashSet<>();
    List<GatewayClass> classList = new ArrayList<>();
    for (GatewayClass c : classes.lister().list()) {
      if (c.controllerName().equals(controllerName)) {
        ourClasses.add(c.metadata().name());
        classList.add(c);
      }
    }
    List<Gateway> allGateways = ctx.lister().list();
    List<Gateway> gateways = new ArrayList<>();
    for (Gateway g : allGateways) {
      if (ourClasses.contains(g.spec().gatewayClassName())) {
        gateways.add(g);
      }
    }
    List<HTTPRoute> routeList = routes.lister().list();
    GatewayAttachment a = GatewayAttachment.compute(new GatewayObjects(classList, gateways, routeList,
        ctx.lister(Service.class).list(), ctx.lister(Namespace.class).list(),
        ctx.lister(ReferenceGrant.class).list(), ctx.lister(Secret.class).list()), controllerName);
    boolean complete = true;
    for (GatewayClass c : classList) {
      long gen = c.metadata().generation();
      GatewayClassStatus want = new GatewayClassStatus(merge(c.status().conditions(),
          List.of(new Condition(Conditions.ACCEPTED, ConditionStatus.True, gen, null, "Accepted", ""),
              supportedVersion), gen, now));
      if (!want.equals(c.status())) {
        complete &= write(ctx, c, x -> x.withStatus(want));
      }
    }
    for (Gateway g : gateways) {
      GatewayStatus computed = a.gateway(g.metadata().key());
      if (computed == null) {
        continue;
      }
      long gen = g.metadata().generation();
      GatewayStatus old = g.status();
      List<ListenerStatus> listeners = new ArrayList<>();
      for (ListenerStatus l : computed.listeners()) {
        ListenerStatus was = old.listener(l.name());
        listeners.add(new ListenerStatus(l.name(), l.supportedKinds(), l.attachedRoutes(),
            merge(was == null ? List.of() : was.conditions(), l.conditions(), gen, now)));
      }
      GatewayStatus want = new GatewayStatus(merge(old.conditions(), computed.conditions(), gen, now), listeners);
      if (!want.equals(old)) {
        complete &= write(ctx, g, x -> x.withStatus(want));
      }
    }
    Set<String> ourGateways = new HashSet<>();
    gateways.forEach(g -> ourGateways.add(g.metadata().key()));
    for (HTTPRoute r : routeList) {
      HTTPRouteStatus want = routeStatus(r, a.route(r.metadata().key()), ourGateways, now);
      if (!want.equals(r.status())) {
        complete &= write(ctx, r, x -> x.withStatus(want));
      }
    }
    if (complete) {
      synced.clear();
      allGateways.forEach(g -> synced.put(ObjectKey.of(g), g.metadata().generation()));
    }
    return complete;
  }

  /**
   * {@code SupportedVersion} ({@code apis/v1/gatewayclass_types.go}; the version is GEP-922's bundle-version
   * annotation) for Gateway API CRDs of bundle version {@code installed}: True when it is one this controller
   * supports, else False {@code UnsupportedVersion} with the detected and the supported versions in the message, as
   * upstream asks. A class is accepted either way: upstream
   * lets an implementation give "best effort" support to versions it does not recognise.
   */
  static Condition supportedVersion(String installed) {
    if (SUPPORTED_BUNDLE_VERSIONS.contains(installed)) {
      return Condition.of(Conditions.SUPPORTED_VERSION, ConditionStatus.True, Conditions.SUPPORTED_VERSION,
          "Gateway API bundle version " + installed + " is supported");
    }
    String detected = installed.isEmpty() ? "the Gateway API CRDs have no " + BUNDLE_VERSION_ANNOTATION
        + " annotation" : "Gateway API bundle version " + installed + " is not supported";
    return Condition.of(Conditions.SUPPORTED_VERSION, ConditionStatus.False, Conditions.UNSUPPORTED_VERSION,
        detected + "; supported: " + String.join(", ", SUPPORTED_BUNDLE_VERSIONS));
  }

  /** The route's parents: other controllers' entries as they are, then ours, one per parentRef we serve. */
  private HTTPRouteStatus routeStatus(HTTPRoute r, List<RouteParent> computed, Set<String> ourGateways,
      Instant now) {
    long gen = r.metadata().generation();
    List<RouteParentStatus> parents = new ArrayList<>();
    for (RouteParentStatus p : r.status().parents()) {
      if (!p.controllerName().equals(controllerName)) {
        parents.add(p);
      }
    }
    Set<Object> done = new HashSet<>();
    for (RouteParent p : computed) {
      RouteParentStatus s = p.status();
      if (!s.parentRef().isGateway() || !ourGateways.contains(p.gateway()) || !done.add(s.parentRef())) {
        continue;
      }
      RouteParentStatus was = r.status().parent(s.parentRef(), controllerName);
      parents.add(new RouteParentStatus(s.parentRef(), s.controllerName(),
          merge(was == null ? List.of() : was.conditions(), s.conditions(), gen, now)));
    }
    return new HTTPRouteStatus(parents);
  }

  /**
   * {@code computed} stamped with {@code generation}, each keeping the {@code lastTransitionTime} of the condition
   * of its type in {@code old} when the status is the same, else {@code now}.
   */
  private static List<Condition> merge(List<Condition> old, List<Condition> computed, long generation,
      Instant now) {
    Map<String, Condition> byType = new HashMap<>();
    old.forEach(c -> byType.put(c.type(), c));
    List<Condition> out = new ArrayList<>(computed.size());
    for (Condition c : computed) {
      Condition was = byType.get(c.type());
      Instant since = was != null && was.status() == c.status() && was.lastTransitionTime() != null
          ? was.lastTransitionTime() : now;
      out.add(new Condition(c.type(), c.status(), generation, since, c.reason(), c.message()));
    }
    return out;
  }

  /** Writes {@code object}'s new status; {@code false} on a conflict. */
  private <T extends ApiObject<T>> boolean write(ReconcileContext<Gateway> ctx, T object,
      UnaryOperator<T> withStatus) {
    try {
      ctx.store().updateStatus(withStatus.apply(object));
      writes.incrementAndGet();
      LOG.debug("gateway-status: wrote the status of {} {}", object.kind(), object.metadata().key());
      return true;
    } catch (ConflictException e) {
      LOG.debug("gateway-status: {} {} changed since it was read; syncing again", object.kind(),
          object.metadata().key());
      return false;
    } catch (NotFoundException e) {
      return true; // deleted meanwhile: its delete event queues the next sync
    }
  }

  /** Configures a {@link GatewayStatusController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private String controllerName = DEFAULT_CONTROLLER_NAME;
    private String crdBundleVersion = BUNDLE_VERSION;
    private boolean stepping;
    private @Nullable TimerClock clock;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * The {@code controllerName} of the GatewayClasses this controller serves (default
     * {@value GatewayStatusController#DEFAULT_CONTROLLER_NAME}).
     *
     * @throws IllegalArgumentException if it is not a domain-prefixed path ({@code example.com/name})
     */
    public Builder controllerName(String name) {
      Objects.requireNonNull(name, "name");
      int slash = name.indexOf('/');
      if (slash <= 0 || slash == name.length() - 1 || !name.substring(0, slash).contains(".")) {
        throw new IllegalArgumentException("GatewayStatusController: controllerName must be a domain-prefixed path"
            + " such as example.com/gateway-controller but was \"" + name + "\"");
      }
      this.controllerName = name;
      return this;
    }

    /**
     * The {@value GatewayStatusController#BUNDLE_VERSION_ANNOTATION} of the Gateway API CRDs the store serves, for
     * the {@code SupportedVersion} condition (default {@value GatewayStatusController#BUNDLE_VERSION}: FleetKit's
     * built-in kinds). An embedder mirroring a cluster's objects gives that cluster's CRD annotation; empty when
     * the CRDs have none, which upstream counts as unsupported.
     *
     * @throws IllegalArgumentException if it is neither empty nor a version such as {@code v1.6.1}
     */
    public Builder crdBundleVersion(String version) {
      Objects.requireNonNull(version, "version");
      if (!version.isEmpty() && !version.matches("v\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.-]+)?")) {
        throw new IllegalArgumentException("GatewayStatusController: crdBundleVersion must be a version such as "
            + BUNDLE_VERSION + " (or empty when the CRDs have no " + BUNDLE_VERSION_ANNOTATION + " annotation) but"
            + " was \"" + version + "\"");
      }
      this.crdBundleVersion = version;
      return this;
    }

    /** Stepping mode: no threads; drive it with {@link #runUntilIdle()}. */
    public Builder stepping() {
      this.stepping = true;
      return this;
    }

    /** The clock of the conditions' {@code lastTransitionTime} and of the queue's backoff. */
    public Builder clock(TimerClock c) {
      this.clock = Objects.requireNonNull(c, "clock");
      return this;
    }

    public GatewayStatusController build() {
      return new GatewayStatusController(this);
    }
  }
}
