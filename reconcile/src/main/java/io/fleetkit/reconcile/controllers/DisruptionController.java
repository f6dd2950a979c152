package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerBuilder;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.SchedulingClock;
import io.fleetkit.reconcile.controllers.internal.DisruptionReconciler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;

/**
 * Keeps the status of every {@link PodDisruptionBudget} ({@code currentHealthy}, {@code desiredHealthy},
 * {@code expectedPods}, {@code disruptionsAllowed}, {@code disruptedPods}, condition DisruptionAllowed), as
 * Kubernetes' disruption controller; see {@link DisruptionReconciler} for the arithmetic. Budgets are recomputed
 * when a selected pod or a ReplicaSet, Deployment or StatefulSet of the namespace changes.
 * {@link #canEvict(Pod)} and {@link #evict(Pod)} are the eviction subresource ({@link Evictions}) over the same
 * store.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class DisruptionController implements AutoCloseable {
  private final Controller<PodDisruptionBudget> controller;
  private final ObjectStore store;
  private final SchedulingClock clock;

  private DisruptionController(Builder b) {
    store = b.store;
    clock = b.clock != null ? b.clock : SchedulingClock.system();
    ControllerBuilder<PodDisruptionBudget> cb = Controller.builder(store, PodDisruptionBudget.class).name(b.name)
        .reconciler(new DisruptionReconciler())
        .watches(Pod.class, pod -> budgetsSelecting(store, pod))
        .watches(ReplicaSet.class, rs -> budgetsOfNamespace(store, rs))
        .watches(Deployment.class, d -> budgetsOfNamespace(store, d))
        .watches(StatefulSet.class, ss -> budgetsOfNamespace(store, ss))
        .clock(clock);
    if (b.stepping) {
      cb.stepping();
    } else {
      cb.workers(b.workers);
    }
    controller = cb.build();
  }

  private static List<ObjectKey> budgetsSelecting(ObjectStore store, Pod pod) {
    List<ObjectKey> keys = new ArrayList<>();
    for (PodDisruptionBudget pdb : Evictions.budgetsFor(store, pod)) {
      keys.add(ObjectKey.of(pdb));
    }
    return keys;
  }

  private static List<ObjectKey> budgetsOfNamespace(ObjectStore store, ApiObject<?> workload) {
    List<ObjectKey> keys = new ArrayList<>();
    for (PodDisruptionBudget pdb : store.list(PodDisruptionBudget.class, workload.metadata().namespace())
        .items()) {
      keys.add(ObjectKey.of(pdb));
    }
    return keys;
  }

  /** A builder for a disruption controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Starts the informers (and workers); completes when synced. */
  public CompletableFuture<Void> start() {
    return controller.start();
  }

  /** Stepping mode: reconciles until no key is ready; returns how many keys were processed. */
  public int runUntilIdle() {
    return controller.runUntilIdle();
  }

  /** The underlying controller. */
  public Controller<PodDisruptionBudget> controller() {
    return controller;
  }

  /** Whether the budgets allow evicting {@code pod} now; see {@link Evictions#canEvict}. */
  public EvictionDecision canEvict(Pod pod) {
    return Evictions.canEvict(store, pod);
  }

  /** Evicts {@code pod} if its budget allows, at the controller's clock; see {@link Evictions#evict}. */
  public EvictionDecision evict(Pod pod) {
    Instant now = clock.now();
    return Evictions.evict(store, pod, now);
  }

  @Override
  public void close() {
    controller.close();
  }

  /** Configures a {@link DisruptionController}. Not thread-safe. */
  public static final class Builder {
    private final ObjectStore store;
    private String name = "disruption";
    private @Nullable SchedulingClock clock;
    private boolean stepping;
    private int workers = 1;

    private Builder(ObjectStore store) {
      this.store = Objects.requireNonNull(store, "store");
    }

    /** The controller name (logs, thread names); default {@code disruption}. */
    public Builder name(String v) {
      name = Objects.requireNonNull(v, "name");
      return this;
    }

    /** The clock (disruptedPods expiry, eviction times); default the system clock. */
    public Builder clock(SchedulingClock v) {
      if (clock != null) {
        throw new IllegalStateException("DisruptionController: clock was already set to " + clock);
      }
      clock = Objects.requireNonNull(v, "clock");
      return this;
    }

    /** Stepping mode: no threads, drive with {@link DisruptionController#runUntilIdle()}. */
    public Builder stepping() {
      stepping = true;
      return this;
    }

    /**
     * Threaded mode with {@code n} workers (default 1).
     *
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public Builder workers(int n) {
      if (n < 1) {
        throw new IllegalArgumentException("DisruptionController: workers must be at least 1 but was " + n);
      }
      workers = n;
      return this;
    }

    public DisruptionController build() {
      return new DisruptionController(this);
    }
  }
}
