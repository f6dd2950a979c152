package io.fleetkit.networking.ipam;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Service;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Result;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link ServiceAddressAllocator} to the Services in a store: a Service without addresses gets them
 * written into its spec; a Service whose explicit address or node port is refused keeps its spec and the refusal is
 * listed in {@link #problems()} (the message names the Service, the field and the reason); a deleted Service's
 * addresses are released. Existing Services are re-registered when the controller starts, oldest first, so that on
 * a conflict the older Service keeps the address (the apiserver's repair rule).
 *
 * <p>A Service in the store whose cluster IP is refused is what the apiserver's repair loop ({@code repair.go})
 * finds and reports, and it records the same Warning events on the Service (action {@value #ACTION_ALLOCATION}):
 * {@value #CLUSTER_IP_OUT_OF_RANGE} ({@code Cluster IP [IPv4]:10.0.0.5 is not within the service CIDR 10.96.0.0/16;
 * please recreate service}), {@value #CLUSTER_IP_ALREADY_ALLOCATED} ({@code Cluster IP [IPv4]:10.96.0.10 was
 * assigned to multiple services; please recreate service}), and {@value #CLUSTER_IP_NOT_VALID} (action
 * {@value #ACTION_VALIDATION}; {@code Cluster IP 2001:db8::1(IPv6) is of ip family that is no longer configured on
 * cluster; please recreate service}), one per refused address, each time the Service is synced. Upstream's
 * {@code ClusterIPNotAllocated} has no counterpart: the allocator keeps no state of its own to drift from the
 * Services (it is rebuilt from them at start), so every address a Service holds is allocated.
 */
public final class ServiceAddressController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceAddressController.class);
  /** A Service's cluster IP lies outside its family's service CIDR. */
  public static final String CLUSTER_IP_OUT_OF_RANGE = "ClusterIPOutOfRange";
  /** A Service's cluster IP is another (older) Service's. */
  public static final String CLUSTER_IP_ALREADY_ALLOCATED = "ClusterIPAlreadyAllocated";
  /** A Service's cluster IP is of a family the cluster has no service CIDR for. */
  public static final String CLUSTER_IP_NOT_VALID = "ClusterIPNotValid";
  static final String ACTION_ALLOCATION = "ClusterIPAllocation";
  static final String ACTION_VALIDATION = "ClusterIPValidation";

  private final ServiceAddressAllocator allocator;
  private final Controller<Service> controller;
  private final Map<String, String> problems = new TreeMap<>();

  /**
   * @param stepping drive with {@link #runUntilIdle()} instead of a worker thread
   */
  public ServiceAddressController(ObjectStore store, ServiceAddressAllocator allocator, boolean stepping) {
    this(store, allocator, stepping, EventRecorder.NOOP);
  }

  /**
   * As {@link #ServiceAddressController(ObjectStore, ServiceAddressAllocator, boolean)}, recording the repair
   * events to {@code events} (made best effort by the reconcile runtime).
   */
  public ServiceAddressController(ObjectStore store, ServiceAddressAllocator allocator, boolean stepping,
      EventRecorder events) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    ControllerBuilder<Service> b = Controller.builder(store, Service.class).name("service-addresses")
        .reconciler(this::reconcile).events(Objects.requireNonNull(events, "events"));
    this.controller = stepping ? b.stepping().build() : b.build();
  }

  public CompletableFuture<Void> start() {
    return controller.start();
  }

  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** Refused Services by {@code namespace/name}, with the reason. */
  public synchronized Map<String, String> problems() {
    return Map.copyOf(problems);
  }

  private synchronized void problem(ObjectKey key, String message) {
    problems.put(key.toString(), message);
  }

  private synchronized void clearProblem(ObjectKey key) {
    problems.remove(key.toString());
  }

  private Result reconcile(ReconcileContext<Service> ctx) {
    ObjectKey key = ctx.key();
    Service s = ctx.object().orElse(null);
    if (s == null) {
      allocator.release(key.namespace(), key.name());
      clearProblem(key);
      return Result.done();
    }
    if (allocator.holds(key.namespace(), key.name())) {
      return Result.done();
    }
    Service allocated;
    try {
      allocated = allocator.allocate(s);
    } catch (ValidationException e) {
      LOG.debug("service-addresses: {}", e.getMessage());
      problem(key, e.getMessage());
      for (ServiceAddressAllocator.Refusal r : allocator.refusedClusterIps(s)) {
        repairEvent(ctx, s, r);
      }
      return Result.done();
    }
    clearProblem(key);
    if (!allocated.spec().equals(s.spec())) {
      try {
        ctx.store().update(allocated);
      } catch (ConflictException e) {
        allocator.release(key.namespace(), key.name());
        return Result.requeue();
      }
    }
    return Result.done();
  }

  /** The event {@code repair.go}'s {@code runOnce} records for the refused address. */
  private static void repairEvent(ReconcileContext<Service> ctx, Service s, ServiceAddressAllocator.Refusal r) {
    String family = r.ip().family().name();
    ServiceIpRange range = r.range();
    if (range == null) {
      ctx.events().event(s, Event.WARNING, CLUSTER_IP_NOT_VALID, ACTION_VALIDATION, "Cluster IP " + r.ip() + "("
          + family + ") is of ip family that is no longer configured on cluster; please recreate service");
    } else if (r.reason() == AllocationException.Reason.NOT_IN_RANGE) {
      ctx.events().event(s, Event.WARNING, CLUSTER_IP_OUT_OF_RANGE, ACTION_ALLOCATION, "Cluster IP [" + family + "]:"
          + r.ip() + " is not within the service CIDR " + range.cidr() + "; please recreate service");
    } else if (r.reason() == AllocationException.Reason.ALREADY_ALLOCATED) {
      ctx.events().event(s, Event.WARNING, CLUSTER_IP_ALREADY_ALLOCATED, ACTION_ALLOCATION, "Cluster IP [" + family
          + "]:" + r.ip() + " was assigned to multiple services; please recreate service");
    }
  }

  @Override
  public void close() {
    controller.close();
  }
}
