package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.metrics.Histogram;
import io.fleetkit.api.metrics.MetricsRegistry;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.metrics.TtlAfterFinishedMetrics;
import java.time.Duration;
import java.time.Instant;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TTL-after-finished reconciler, after upstream's {@code processJob} and {@code processTTL}: a Job from the
 * cache that is not being deleted and needs clean-up ({@link TtlAfterFinished#needsCleanup}) is requeued for the
 * time its TTL has left, on the controller's clock; once the TTL has expired the Job is read again from the store
 * and checked again (its TTL may have been changed or removed, or the Job replaced), and only then deleted, with a
 * precondition on the uid read. A Job whose finish time is unknown, or whose deletion conflicts (another Job of that
 * name), is retried with backoff; one that is gone is done.
 *
 * <p>Upstream deletes with foreground propagation (the Job stays until its pods are gone). The FleetKit store has no
 * propagation policies: the Job is removed at once and its pods, which it owns, are deleted by the garbage collector
 * (background propagation), when one runs.
 *
 * <p>Thread-safe: stateless but for the histogram, which is.
 */
public final class TtlAfterFinishedReconciler implements Reconciler<Job> {
  private static final Logger LOG = LoggerFactory.getLogger(TtlAfterFinishedReconciler.class);

  /** The deletion-duration series; null when nothing is measured. */
  private final @Nullable Histogram deletionDuration;

  public TtlAfterFinishedReconciler(MetricsRegistry metrics) {
    this.deletionDuration = metrics.enabled()
        ? metrics.histogram(TtlAfterFinishedMetrics.JOB_DELETION_DURATION) : null;
  }

  /** What {@link #processTtl} decided: nothing to do, look again after a delay, or expired at an instant. */
  private record Ttl(@Nullable Duration requeueAfter, @Nullable Instant expiredAt) {
    static final Ttl NONE = new Ttl(null, null);
  }

  @Override
  public Result reconcile(ReconcileContext<Job> ctx) {
    Job cached = ctx.object().orElse(null);
    if (cached == null) {
      return Result.done();
    }
    Ttl ttl;
    try {
      ttl = processTtl(cached, ctx.now());
      if (ttl.expiredAt() == null) {
        return resultOf(ttl);
      }
      // the cached TTL has expired, but the cache may be stale: read the Job again and check its current TTL
      Job fresh = ctx.store().get(Job.class, cached.metadata().namespace(), cached.metadata().name()).orElse(null);
      if (fresh == null) {
        return Result.done();
      }
      ttl = processTtl(fresh, ctx.now());
      if (ttl.expiredAt() == null) {
        return resultOf(ttl);
      }
      LOG.debug("ttl-after-finished: cleaning up job {}", ctx.key());
      // As upstream: "Cascade deletes the Jobs if TTL truly expires", in the foreground and only this Job (uid).
      ctx.store().delete(Job.class, fresh.metadata().namespace(), fresh.metadata().name(),
          DeleteOptions.foreground().withPreconditions(DeletePreconditions.uid(fresh.metadata().uid())));
    } catch (IllegalArgumentException e) {
      LOG.warn("ttl-after-finished: error cleaning up job {}, will retry: {}", ctx.key(), e.getMessage());
      return Result.requeue();
    } catch (NotFoundException e) {
      return Result.done();
    } catch (ConflictException e) {
      LOG.debug("ttl-after-finished: deleting job {} conflicted, will retry: {}", ctx.key(), e.getMessage());
      return Result.requeue();
    }
    if (deletionDuration != null) {
      deletionDuration.observe(Duration.between(ttl.expiredAt(), ctx.now()).toNanos() / 1e9);
    }
    return Result.done();
  }

  private static Result resultOf(Ttl ttl) {
    Duration after = ttl.requeueAfter();
    return after != null ? Result.requeueAfter(after) : Result.done();
  }

  /**
   * Whether {@code job}'s TTL has expired at {@code now}: {@link Ttl#NONE} for a Job being deleted or not needing
   * clean-up, a requeue delay while time is left, else the instant it expired.
   *
   * @throws IllegalArgumentException if the Job's finish time is unknown
   */
  private static Ttl processTtl(Job job, Instant now) {
    if (job.metadata().deletionTimestamp() != null || !TtlAfterFinished.needsCleanup(job)) {
      return Ttl.NONE;
    }
    TtlAfterFinished.TimeLeft left = TtlAfterFinished.timeLeft(job, now);
    Instant finishAt = TtlAfterFinished.jobFinishTime(job);
    if (finishAt.isAfter(now)) {
      LOG.info("ttl-after-finished: job {}/{} finished in the future ({} after {}), likely clock skew; its clean-up"
          + " is deferred", job.metadata().namespace(), job.metadata().name(), finishAt, now);
    }
    if (left.expired()) {
      return new Ttl(null, left.expireAt());
    }
    return new Ttl(left.left(), null);
  }
}
