package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.controllers.internal.TtlAfterFinishedReconciler;

/**
 * Deletes finished {@link Job}s once their {@code spec.ttlSecondsAfterFinished} has passed, as Kubernetes'
 * TTL-after-finished controller. A Job is finished when its {@code Complete} or {@code Failed} condition is
 * {@code True}, at that condition's {@code lastTransitionTime}; it expires {@code ttlSecondsAfterFinished} seconds
 * later (0: at once). Jobs without the field, unfinished Jobs and Jobs being deleted are left alone. The key of a
 * finished Job is requeued for the time its TTL has left, measured on the controller's clock (a simulated clock
 * drives it as well as the system clock); a change to the Job wakes it at once, so a TTL raised before it expires
 * postpones the deletion, a TTL removed cancels it. When the TTL has expired the Job is read again from the store and
 * checked again before it is deleted, with a precondition on its uid (a new Job of the same name is never deleted
 * for the old one's TTL). A finished Job whose condition has no {@code lastTransitionTime} is retried with backoff
 * and logged.
 *
 * <p>Deletion propagates in the foreground, as Kubernetes' controller ({@code propagationPolicy: Foreground}): the
 * store marks the Job with the {@code foregroundDeletion} finalizer, the garbage collector
 * ({@link io.fleetkit.reconcile.GarbageCollector}) deletes its pods and then lets the Job go. Without a running
 * collector the Job stays marked for deletion (this controller leaves Jobs being deleted alone).
 *
 * <p>Metric ({@link #builder}{@code .metrics(registry)}):
 * {@link io.fleetkit.reconcile.metrics.TtlAfterFinishedMetrics#JOB_DELETION_DURATION}, the time from expiry to
 * deletion of each Job deleted; without a registry nothing is measured.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class TtlAfterFinishedController extends ControllerHandle<Job> {
  private TtlAfterFinishedController(Builder b) {
    super(b.buildController(Job.class, cb -> cb.reconciler(new TtlAfterFinishedReconciler(b.metricsRegistry()))));
  }

  /** A builder for a TTL-after-finished controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * Configures a {@link TtlAfterFinishedController}: default name {@code ttl-after-finished}; the clock decides
   * when a TTL has expired. Not thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, TtlAfterFinishedController> {
    private Builder(ObjectStore store) {
      super(store, "TtlAfterFinishedController", "ttl-after-finished");
    }

    @Override
    public TtlAfterFinishedController build() {
      return new TtlAfterFinishedController(this);
    }
  }
}
