package io.fleetkit.reconcile.controllers;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.WatchEventType;
import io.fleetkit.reconcile.Controller;
import io.fleetkit.reconcile.ControllerHandle;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.controllers.internal.FinalizerExpectations;
import io.fleetkit.reconcile.controllers.internal.JobOrphanPodReconciler;
import io.fleetkit.reconcile.controllers.internal.JobReconciler;
import io.fleetkit.reconcile.controllers.internal.OrphanEvents;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

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
 * <p>Finished pods are counted through the {@value Job#TRACKING_FINALIZER} finalizer, as upstream since Kubernetes
 * 1.26: every pod the controller creates or adopts carries it; a finished pod's UID goes to {@code
 * status.uncountedTerminatedPods}, then its finalizer is removed, then it is counted in {@code status.succeeded} or
 * {@code status.failed}. A pod deleted while it has the finalizer is counted as failed (unless it succeeded) before
 * it is let go. A second queue, of pods, removes the finalizer from pods no Job will count: orphans, pods of a Job
 * that is gone, finished, or whose pods it stopped controlling (upstream's orphan queue).
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
  private final JobReconciler reconciler;
  private final Controller<Pod> orphanPods;

  private JobController(Builder b) {
    this(b, new JobReconciler(PodNameSuffixes.seeded(b.seed, "job")),
        new OrphanEvents<Job, Pod>(JobReconciler::selectorOf), new AtomicReference<>());
  }

  /**
   * @param orphanPodsRef the orphan-pod controller once built: the Job watch of that controller maps a Job to pods
   *     through the controller's own pod cache
   */
  private JobController(Builder b, JobReconciler r, OrphanEvents<Job, Pod> orphans,
      AtomicReference<Controller<Pod>> orphanPodsRef) {
    super(b.buildController(Job.class, cb -> cb.reconciler(r).owns(Pod.class).handler(Pod.class, orphans)
        .handler(Pod.class, r.finalizerExpectations())));
    orphans.bind(controller());
    this.reconciler = r;
    // upstream's pod handlers queue only pods that hold the tracking finalizer: the others have nothing to remove
    this.orphanPods = b.buildController(Pod.class, "-orphan-pods", cb -> cb.reconciler(new JobOrphanPodReconciler())
        .eventFilter(pod -> pod.metadata().finalizers().contains(Job.TRACKING_FINALIZER))
        .watches(Job.class, EnumSet.of(WatchEventType.MODIFIED, WatchEventType.DELETED), (job, jobs) -> {
          Controller<Pod> self = orphanPodsRef.get();
          // upstream's cleanupPodFinalizers: a Job deleted or finished lets go of the pods it still holds
          boolean released = !jobs.get(job.metadata().namespace(), job.metadata().name())
              .filter(j -> j.metadata().uid().equals(job.metadata().uid())).isPresent()
              || job.status().isFinished();
          return self == null || !released ? List.<ObjectKey>of() : JobOrphanPodReconciler.podsToClean(job,
              self.lister());
        }));
    orphanPodsRef.set(orphanPods);
  }

  /** A builder for a Job controller over {@code store}. */
  public static Builder builder(ObjectStore store) {
    return new Builder(store);
  }

  /** The Job reconciler's finalizer-removal expectations (for tests). */
  FinalizerExpectations finalizerExpectations() {
    return reconciler.finalizerExpectations();
  }

  /** The runtime controller of the orphan-pod queue (for tests). */
  Controller<Pod> orphanPods() {
    return orphanPods;
  }

  @Override
  public CompletableFuture<Void> start() {
    return CompletableFuture.allOf(super.start(), orphanPods.start());
  }

  @Override
  public int runUntilIdle() {
    int total = 0;
    int n;
    do {
      n = super.runUntilIdle() + orphanPods.runUntilIdle();
      total += n;
    } while (n > 0);
    return total;
  }

  @Override
  public void close() {
    try {
      orphanPods.close();
    } finally {
      super.close();
    }
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
