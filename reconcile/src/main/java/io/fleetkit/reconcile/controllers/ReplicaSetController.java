package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.apps.ReplicaSet;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ResourceEventHandler;
import io.fleetkit.reconcile.controllers.internal.ControllerExpectations;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import io.fleetkit.reconcile.controllers.internal.ReplicaSetReconciler;
import org.jspecify.annotations.Nullable;

/**
 * Keeps {@code spec.replicas} active pods for every {@link ReplicaSet}, as Kubernetes' ReplicaSet controller: pods
 * are created from the template with a generated name ({@code NAME-xxxxx}) and a controller owner reference,
 * matching orphans are adopted (an orphan appearing wakes every ReplicaSet whose selector matches it) and pods that
 * stop matching released, and surplus pods are deleted in upstream's victim order ({@link ActivePods}).
 * Expectations keep it from creating or deleting again before its own earlier writes reach its cache. Status
 * counts replicas, ready and available (ready for {@code minReadySeconds} on the controller's clock) pods.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class ReplicaSetController extends ControllerHandle<ReplicaSet> {
  private final ControllerExpectations expectations;

  private ReplicaSetController(Builder b) {
    this(b, new ExpectationsHandler<>(new ControllerExpectations(), ReplicaSet.KIND),
        new OrphanEvents<ReplicaSet, Pod>(rs -> OrphanEvents.nonEmpty(rs.spec().selector())));
  }

  private ReplicaSetController(Builder b, ExpectationsHandler<ReplicaSet> handler, OrphanEvents<ReplicaSet, Pod> orphans) {
    super(b.buildController(ReplicaSet.class, cb -> cb.reconciler(new ReplicaSetReconciler(handler.expectations,
        b.burst(), PodNameSuffixes.seeded(b.nameSeed(), "replicaset"))).owns(Pod.class).handler(Pod.class, handler)
        .handler(Pod.class, orphans)));
    this.expectations = handler.expectations;
    handler.controller = controller();
    orphans.bind(controller());
  }

  /** A builder for a ReplicaSet controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** Creations the controller still waits to observe for {@code key}. */
  public int pendingCreations(ObjectKey key) {
    return expectations.pendingCreations(key);
  }

  /**
   * Feeds expectations from pod events and wakes the owner (a pod's controller of kind {@code ownerKind}), as the
   * upstream pod event handlers; on the controller's own pod informer, before its owner mapping. Shared with the
   * {@link ReplicationManager}.
   */
  static final class ExpectationsHandler<T extends io.fleetkit.api.meta.ApiObject<T>>
      implements ResourceEventHandler<Pod> {
    final ControllerExpectations expectations;
    private final String ownerKind;
    /** Set once the controller is built, before it starts (no event reaches the handler earlier). */
    @Nullable Controller<T> controller;

    ExpectationsHandler(ControllerExpectations expectations, String ownerKind) {
      this.expectations = expectations;
      this.ownerKind = ownerKind;
    }

    private Controller<T> controller() {
      return java.util.Objects.requireNonNull(controller, "controller");
    }

    @Override
    public void onAdd(Pod pod) {
      ObjectKey owner = owner(pod);
      if (owner != null) {
        if (pod.metadata().deletionTimestamp() != null) {
          expectations.deletionObserved(owner, pod.metadata().key());
        } else {
          expectations.creationObserved(owner);
        }
        controller().enqueue(owner);
      }
    }

    @Override
    public void onUpdate(Pod oldPod, Pod newPod) {
      ObjectKey owner = owner(newPod);
      if (owner != null && oldPod.metadata().deletionTimestamp() == null
          && newPod.metadata().deletionTimestamp() != null) {
        expectations.deletionObserved(owner, newPod.metadata().key());
        controller().enqueue(owner);
      }
    }

    @Override
    public void onDelete(Pod pod, boolean finalStateUnknown) {
      ObjectKey owner = owner(pod);
      if (owner != null) {
        expectations.deletionObserved(owner, pod.metadata().key());
        controller().enqueue(owner);
      }
    }

    private @Nullable ObjectKey owner(Pod pod) {
      OwnerReference ref = pod.metadata().controllerRef();
      return ref != null && ref.kind().equals(ownerKind)
          ? ObjectKey.of(pod.metadata().namespace(), ref.name()) : null;
    }
  }

  /**
   * Configures a {@link ReplicaSetController}: default name {@code replicaset}; the clock drives queue delays,
   * minReadySeconds and the expectations TTL. Not thread-safe.
   */
  public static final class Builder extends ReplicaControllerBuilder<Builder, ReplicaSetController> {
    private Builder(ObjectStore store) {
      super(store, "ReplicaSetController", "replicaset");
    }

    @Override
    public ReplicaSetController build() {
      return new ReplicaSetController(this);
    }
  }
}
