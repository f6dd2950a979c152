package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.reconcile.Controller;
import java.util.concurrent.CompletableFuture;

/**
 * The lifecycle the workload controllers share, over one runtime {@link Controller}: start, step, close. A
 * controller with more to run (the ReplicaSet controller's pod informer) overrides {@link #start()} and
 * {@link #close()}. Package-private: callers see these methods on each public controller. Thread-safe as the
 * runtime controller is.
 *
 * @param <T> the primary kind
 */
abstract class WorkloadController<T extends ApiObject<T>> implements AutoCloseable {
  private final Controller<T> controller;

  WorkloadController(Controller<T> controller) {
    this.controller = controller;
  }

  /** Starts the informers (and workers); completes when synced. */
  public CompletableFuture<Void> start() {
    return controller.start();
  }

  /** Stepping mode: reconciles until no key is ready; returns how many keys were processed. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** The underlying controller (queue, lister, enqueue). */
  public Controller<T> controller() {
    return controller;
  }

  @Override
  public void close() {
    controller.close();
  }
}
