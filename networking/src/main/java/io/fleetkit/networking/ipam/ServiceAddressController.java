package io.fleetkit.networking.ipam;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.ValidationException;
import io.fleetkit.api.core.Service;
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
 */
public final class ServiceAddressController implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServiceAddressController.class);

  private final ServiceAddressAllocator allocator;
  private final Controller<Service> controller;
  private final Map<String, String> problems = new TreeMap<>();

  /**
   * @param stepping drive with {@link #runUntilIdle()} instead of a worker thread
   */
  public ServiceAddressController(ObjectStore store, ServiceAddressAllocator allocator, boolean stepping) {
    this.allocator = Objects.requireNonNull(allocator, "allocator");
    ControllerBuilder<Service> b = Controller.builder(store, Service.class).name("service-addresses")
        .reconciler(this::reconcile);
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

  @Override
  public void close() {
    controller.close();
  }
}
