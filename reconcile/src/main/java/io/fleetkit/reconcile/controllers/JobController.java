package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.controllers.internal.JobReconciler;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;

/**
 * Runs {@link Job}s to completion, as Kubernetes' Job controller: up to {@code parallelism} active pods until
 * {@code completions} succeed (NonIndexed), or until each index {@code 0..completions-1} succeeded once (Indexed:
 * annotation and label {@value WorkloadLabels#JOB_COMPLETION_INDEX}, env {@value
 * WorkloadLabels#JOB_COMPLETION_INDEX_ENV}, hostname {@code NAME-INDEX}); without completions, until one succeeds
 * and all have ended. Failed pods are replaced after a 10 s backoff doubling per failure since the last success (6
 * minutes at most); more failures than {@code backoffLimit} fail the Job ({@code BackoffLimitExceeded}), as does
 * {@code activeDeadlineSeconds} ({@code DeadlineExceeded}); {@code suspend} deletes the active pods. Status counts
 * active, ready, succeeded and failed pods and carries Complete/Failed/Suspended conditions. Expectations (the
 * names of the pods it created and deleted, checked against its own pod cache) keep it from acting twice before
 * that cache has caught up with its writes.
 *
 * <p>The Job's pods are those of its namespace that its selector matches ({@code spec.selector}, else the selector
 * Kubernetes generates, {@value WorkloadLabels#JOB_CONTROLLER_UID}{@code =<uid>}) and that it controls: each sync
 * adopts matching orphans and releases controlled pods that stopped matching, as upstream's {@code
 * ControllerRefManager}; an orphan appearing, or a pod losing its controller or changing labels, wakes every Job whose
 * selector matches it.
 *
 * <p>Thread-safe. In stepping mode drive it with {@link #runUntilIdle()} on one thread.
 */
public final class JobController extends ControllerHandle<Job> {
  private JobController(Builder b) {
    this(b, new OrphanEvents<Job, Pod>(JobReconciler::selectorOf));
  }

  private JobController(Builder b, OrphanEvents<Job, Pod> orphans) {
    super(b.buildController(Job.class, cb -> cb.reconciler(new JobReconciler(PodNameSuffixes.seeded(b.seed)))
        .owns(Pod.class).handler(Pod.class, orphans)));
    orphans.bind(controller());
  }

  /** A builder for a Job controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /**
   * Configures a {@link JobController}: default name {@code job}; the clock drives backoff, deadlines and the
   * expectations TTL. Not thread-safe.
   */
  public static final class Builder extends WorkloadControllerBuilder<Builder, JobController> {
    private long seed = 1;

    private Builder(ObjectStore store) {
      super(store, "JobController", "job");
    }

    /** Seed of the generated pod-name suffixes (default 1), for reproducible simulations. */
    public Builder seed(long v) {
      seed = v;
      return this;
    }

    @Override
    public JobController build() {
      return new JobController(this);
    }
  }
}
