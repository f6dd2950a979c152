package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.controllers.internal.CronJobReconciler;

/**
 * Runs {@link CronJob}s, as Kubernetes' CronJob controller (v2): at each time of {@code spec.schedule} (read in
 * {@code spec.timeZone}, else UTC) it creates a Job from {@code spec.jobTemplate}, named {@code
 * <cronjob>-<scheduled time in minutes since the epoch>} (so that a run is never created twice), annotated with
 * {@code batch.kubernetes.io/cronjob-scheduled-timestamp}, and controlled by the CronJob. Only the most recent missed
 * time is run, and none when it is more than {@code startingDeadlineSeconds} late; more than 100 missed times since
 * the last run are reported ({@code TooManyMissedTimes}). {@code concurrencyPolicy} Forbid skips a run while a Job
 * is active ({@code JobAlreadyActive}), Replace deletes the active Jobs first; {@code suspend} starts nothing.
 * {@code status.active} follows the Jobs (finished and vanished ones leave it), {@code lastScheduleTime} and
 * {@code lastSuccessfulTime} are kept, and finished Jobs beyond {@code successfulJobsHistoryLimit} and
 * {@code failedJobsHistoryLimit} are deleted, oldest first. Events: SuccessfulCreate, SawCompletedJob, MissSchedule,
 * TooManyMissedTimes, JobAlreadyActive, SuccessfulDelete, UnexpectedJob, MissingJob and the warnings of a broken
 * schedule. The key is requeued for the next scheduled time (plus 100 ms), measured on the controller's clock.
 *
 * <p>The CronJob's Jobs are those of its namespace whose controller reference names it; as upstream, it adopts no
 * orphans. Running the Jobs is the {@link JobController}'s work.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class CronJobController extends ControllerHandle<CronJob> {
  private CronJobController(Builder b) {
    super(b.buildController(CronJob.class, cb -> cb.reconciler(new CronJobReconciler()).owns(Job.class)));
  }

  /** A builder for a CronJob controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * Configures a {@link CronJobController}: default name {@code cronjob}; the clock decides when runs come due. Not
   * thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, CronJobController> {
    private Builder(ObjectStore store) {
      super(store, "CronJobController", "cronjob");
    }

    @Override
    public CronJobController build() {
      return new CronJobController(this);
    }
  }
}
