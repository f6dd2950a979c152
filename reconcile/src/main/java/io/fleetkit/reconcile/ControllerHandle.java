package io.fleetkit.reconcile;

import io.fleetkit.api.meta.ApiObject;
import java.util.concurrent.CompletableFuture;

/**
 * The lifecycle of a controller built on one runtime {@link Controller} (the workload, disruption and rollout
 * controllers): start, step, close. A controller with more to run (the ReplicaSet controller's pod informer)
 * overrides {@link #start()} and {@link #close()}. Thread-safe as the runtime controller is.
 *
 * @param <T> the primary kind
 */
public abstract class ControllerHandle<T extends ApiObject<T>> implements AutoCloseable {
  private final Controller<T> controller;

  protected ControllerHandle(Controller<T> controller) {
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
