package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.ReplicationController;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.ControllerExpectations;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import io.fleetkit.reconcile.controllers.internal.ReplicaSetReconciler;
import io.fleetkit.reconcile.controllers.internal.ReplicationControllerReconciler;

/**
 * Keeps {@code spec.replicas} active pods for every {@link ReplicationController}, as Kubernetes' replication manager
 * ({@code pkg/controller/replication}), which is the ReplicaSet controller run over another kind: the same
 * reconciler as the {@link ReplicaSetController} (expectations, slow-start creations, adoption and release, victim
 * order, status with the ReplicaFailure condition), reading each ReplicationController as a ReplicaSet with its
 * selector as {@code matchLabels}. Pods it creates or adopts carry a controller reference of kind
 * {@code ReplicationController} (apiVersion {@code v1}), named {@code NAME-xxxxx}.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class ReplicationManager extends ControllerHandle<ReplicationController> {
  private final ControllerExpectations expectations;

  private ReplicationManager(Builder b) {
    this(b, new ReplicaSetController.ExpectationsHandler<>(new ControllerExpectations(), ReplicationController.KIND),
        new OrphanEvents<ReplicationController, Pod>(rc -> OrphanEvents.nonEmpty(LabelSelector.of(rc.spec().selector()))));
  }

  private ReplicationManager(Builder b, ReplicaSetController.ExpectationsHandler<ReplicationController> handler,
      OrphanEvents<ReplicationController, Pod> orphans) {
    super(b.buildController(ReplicationController.class, cb -> cb.reconciler(new ReplicationControllerReconciler(
        new ReplicaSetReconciler(handler.expectations, b.burst(),
            PodNameSuffixes.seeded(b.nameSeed(), "replicationmanager")))).owns(Pod.class).handler(Pod.class, handler)
        .handler(Pod.class, orphans)));
    this.expectations = handler.expectations;
    handler.controller = controller();
    orphans.bind(controller());
  }

  /** A builder for a replication manager over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Creations the controller still waits to observe for {@code key}. */
  public int pendingCreations(ObjectKey key) {
    return expectations.pendingCreations(key);
  }

  /**
   * Configures a {@link ReplicationManager}: default name {@code replicationmanager}; the clock drives queue
   * delays, minReadySeconds and the expectations TTL. Not thread-safe.
   */
  public static final class Builder extends ReplicaControllerBuilder<Builder, ReplicationManager> {
    private Builder(ObjectStore store) {
      super(store, "ReplicationManager", "replicationmanager");
    }

    @Override
    public ReplicationManager build() {
      return new ReplicationManager(this);
    }
  }
}
