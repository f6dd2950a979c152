package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.Deployment;
import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.apps.StatefulSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.policy.PodDisruptionBudget;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.api.time.TimerClock;
import io.fleetkit.reconcile.controllers.internal.DisruptionReconciler;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

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
public final class DisruptionController extends ControllerHandle<PodDisruptionBudget> {
  private final ObjectStore store;
  private final TimerClock clock;

  private DisruptionController(Builder b) {
    super(b.buildController(PodDisruptionBudget.class, cb -> {
      ObjectStore store = b.store();
      cb.reconciler(new DisruptionReconciler())
          .watches(Pod.class, pod -> budgetsSelecting(store, pod))
          .watches(ReplicaSet.class, rs -> budgetsOfNamespace(store, rs))
          .watches(ReplicationController.class, rc -> budgetsOfNamespace(store, rc))
          .watches(Deployment.class, d -> budgetsOfNamespace(store, d))
          .watches(StatefulSet.class, ss -> budgetsOfNamespace(store, ss));
    }));
    store = b.store();
    clock = b.effectiveClock();
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

  /** Whether the budgets allow evicting {@code pod} now; see {@link Evictions#canEvict}. */
  public EvictionDecision canEvict(Pod pod) {
    return Evictions.canEvict(store, pod);
  }

  /** Evicts {@code pod} if its budget allows, at the controller's clock; see {@link Evictions#evict}. */
  public EvictionDecision evict(Pod pod) {
    Instant now = clock.now();
    return Evictions.evict(store, pod, now);
  }

  /**
   * Configures a {@link DisruptionController}: default name {@code disruption}; the clock drives the disruptedPods
   * expiry and eviction times. Not thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, DisruptionController> {
    private Builder(ObjectStore store) {
      super(store, "DisruptionController", "disruption");
    }

    @Override
    public DisruptionController build() {
      return new DisruptionController(this);
    }
  }
}
