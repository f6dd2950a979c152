package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.store.DeleteOptions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The CronJob reconciler, after upstream's {@code ControllerV2.sync}: lists the Jobs the CronJob controls, deletes
 * finished ones beyond the history limits, runs {@link CronJobSync#sync}, writes the status once if it changed, and
 * requeues the key for the next scheduled time (from the controller's clock: a simulated clock drives it as well as
 * the system clock). A failed sync or status write is retried with backoff; a suspended CronJob or a broken schedule
 * is not requeued (an update to the CronJob wakes it).
 */
public final class CronJobReconciler implements Reconciler<CronJob> {
  private static final Logger LOG = LoggerFactory.getLogger(CronJobReconciler.class);

  @Override
  public Result reconcile(ReconcileContext<CronJob> ctx) {
    CronJob cj = ctx.object().orElse(null);
    if (cj == null) {
      return Result.done();
    }
    Instant now = ctx.now();
    List<Job> children = CronJobSync.jobsToBeReconciled(cj, ctx.lister(Job.class).list(cj.metadata().namespace()));
    CronJobSync sync = new CronJobSync(cj, new StoreJobs(ctx.store()), ctx.events());
    sync.cleanupFinishedJobs(children);
    CronJobSync.Outcome outcome = sync.sync(children, now);
    if (outcome.error() != null) {
      LOG.debug("cronjob {}: sync failed: {}", ctx.key(), outcome.error().toString());
    }
    if (sync.updateStatus()) {
      try {
        ctx.store().updateStatus(cj.withStatusOf(sync.cronJob()));
      } catch (ConflictException | NotFoundException e) {
        LOG.debug("cronjob {}: status write failed, requeueing: {}", ctx.key(), e.getMessage());
        return Result.requeue();
      }
    }
    Duration after = outcome.requeueAfter();
    if (after != null) {
      return Result.requeueAfter(after.isNegative() ? Duration.ZERO : after);
    }
    return outcome.error() != null ? Result.requeue() : Result.done();
  }

  /** Jobs through the store. */
  private record StoreJobs(ObjectStore store) implements CronJobSync.Jobs {
    @Override
    public Optional<Job> get(String namespace, String name) {
      return store.get(Job.class, namespace, name);
    }

    @Override
    public Job create(Job job) {
      return store.create(job);
    }

    @Override
    public void delete(String namespace, String name) {
      // upstream's realJobControl.DeleteJob: propagationPolicy Background (a batch/v1 Job orphans by default)
      store.delete(Job.class, namespace, name, DeleteOptions.background());
    }

    @Override
    public Optional<CronJob> cronJob(String namespace, String name) {
      return store.get(CronJob.class, namespace, name);
    }
  }
}
