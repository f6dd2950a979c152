package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.batch.PodFailurePolicy;
import io.fleetkit.api.batch.PodReplacementPolicy;
import io.fleetkit.api.core.Container;
import io.fleetkit.api.core.ContainerStatus;
import io.fleetkit.api.core.EnvVar;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.core.PodPhase;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodStatus;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import io.fleetkit.api.store.DeletePreconditions;
import io.fleetkit.api.store.ObjectStore;
import io.fleetkit.api.store.spi.ResourceVersions;
import io.fleetkit.api.text.GoIntegers;
import io.fleetkit.reconcile.Lister;
import io.fleetkit.reconcile.ObjectKey;
import io.fleetkit.reconcile.ReconcileContext;
import io.fleetkit.reconcile.Reconciler;
import io.fleetkit.reconcile.Result;
import io.fleetkit.reconcile.controllers.ActivePods;
import io.fleetkit.reconcile.controllers.WorkloadLabels;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Job reconciler, after {@code pkg/controller/job/job_controller.go} ({@code syncJob}, {@code manageJob}), with
 * upstream's tracking of finished pods through the {@value Job#TRACKING_FINALIZER} finalizer ({@link JobPodTracking},
 * Kubernetes 1.26 on): the pods it creates or adopts carry it; succeeded and failed are {@code status.succeeded} and
 * {@code status.failed}, plus the pods in {@code status.uncountedTerminatedPods}, plus the finished pods that still
 * have the finalizer and whose removal is not awaited ({@link FinalizerExpectations}); a finished Job is not synced.
 *
 * <p>Pod failure policy ({@link PodFailurePolicies}, after upstream's 1.34 controller): a failed pod (phase Failed;
 * a terminating pod is not failed until it is terminal) that matches an {@code Ignore} rule is not counted; the first
 * failed pod that matches a {@code FailJob} rule gives the Job {@code FailureTarget} (reason {@value
 * JobCondition#REASON_POD_FAILURE_POLICY}), its active pods are deleted, and {@code Failed} with the same reason and
 * message follows once none of its pods is terminating. With podReplacementPolicy {@code Failed} (the default with a
 * pod failure policy) terminating pods are not replaced until they are terminal. {@code status.terminating} counts the
 * pods being deleted that are not terminal yet, for every Job (upstream's {@code trackTerminatingPods} once
 * JobPodReplacementPolicy is GA, Kubernetes 1.34).
 *
 * <p>Indexed Jobs with {@code backoffLimitPerIndex} (upstream's {@code indexed_job_utils.go}, {@link IndexFailures}):
 * each pod carries its index's earlier failures in {@value WorkloadLabels#JOB_INDEX_FAILURE_COUNT} (and the ignored
 * ones in {@value WorkloadLabels#JOB_INDEX_IGNORED_FAILURE_COUNT}), set when the pod that replaces a failed one is
 * created; a failed pod whose count reached the limit, or that matched a {@code FailIndex} rule, fails its index
 * ({@code status.failedIndexes}), which gets no new pod while the other indexes go on. Each index waits the backoff
 * of its own failures. More failed indexes than {@code maxFailedIndexes} give {@code FailureTarget} (reason {@value
 * JobCondition#REASON_MAX_FAILED_INDEXES_EXCEEDED}) and the active pods are deleted; once every index succeeded or
 * failed with at least one failed, {@value JobCondition#REASON_FAILED_INDEXES}; {@code Failed} follows as for a
 * FailJob match. {@code backoffLimit} (default MaxInt32 with a per-index limit) still counts every failure.
 * The failed pod an index's replacement replaces keeps its finalizer, uncounted, until the replacement exists
 * (upstream's {@code getPodsWithDelayedDeletionPerIndex}).
 *
 * <p>Success policy ({@link SuccessPolicies}, Indexed Jobs): when a rule is met the Job gets {@code
 * SuccessCriteriaMet} (reason {@value JobCondition#REASON_SUCCESS_POLICY}, message {@code "Matched rules at index
 * <i>"}), its remaining pods are deleted (not counted as failed), and {@code Complete} with the same reason and
 * message follows once none of them is terminating. A Job with {@code SuccessCriteriaMet} is not failed any more;
 * a Job with {@code FailureTarget} does not succeed any more. A Job with as many succeeded pods as it needs gets
 * {@code SuccessCriteriaMet} and then {@code Complete}, both with reason {@value
 * JobCondition#REASON_COMPLETIONS_REACHED} (upstream's {@code newSuccessCondition} once JobSuccessPolicy is GA).
 *
 * <p>A Job whose {@code spec.managedBy} names another controller than {@value JobSpec#JOB_CONTROLLER_NAME} (e.g.
 * Kueue's MultiKueue) is left alone: no pods, no status (upstream's {@code managedByExternalController}).
 *
 * <p>Order of decisions, as upstream: a finished Job is left alone; SuccessCriteriaMet completes it; a FailureTarget
 * or a FailJob match fails it;
 * more failures than {@code backoffLimit} (for
 * restartPolicy OnFailure: container restarts of running pods) fail it with {@value
 * JobCondition#REASON_BACKOFF_LIMIT_EXCEEDED}; else a passed {@code activeDeadlineSeconds} fails it with {@value
 * JobCondition#REASON_DEADLINE_EXCEEDED}; for Indexed Jobs then failed indexes and the success policy. Every failure
 * is {@code FailureTarget} first and {@code Failed} with the same reason once no pod is uncounted and none of the
 * Job's pods terminates (upstream's {@code newFailureCondition} with the terminal condition delayed, Kubernetes 1.34;
 * the pods a sync deletes count as terminating in it); a failing Job's active pods are deleted (keeping their
 * finalizer until counted) and counted as failed. Otherwise
 * a suspended Job's pods are deleted; else active pods are brought to {@code min(parallelism, completions -
 * succeeded)} (work-queue Jobs: parallelism until one succeeds). Deletions and creations never happen in the same
 * sync. New pods after failures wait {@code 10 s * 2^(failures since the last success - 1)}, at most 6 minutes,
 * from the last failure, as upstream's backoff record ({@link JobBackoffStore}): the failures are the pods counted
 * as failed (a pod deleted while running under podReplacementPolicy {@code TerminatingOrFailed} too), remembered
 * after the pods are gone, until the Job finishes or is deleted.
 */
public final class JobReconciler implements Reconciler<Job> {
  private static final Logger LOG = LoggerFactory.getLogger(JobReconciler.class);
  /** Upstream's {@code DefaultJobPodFailureBackOff}. */
  public static final Duration DEFAULT_BACKOFF = Duration.ofSeconds(10);
  /** Upstream's {@code MaxJobBackOff} of the releases that documented it (6 minutes; newer source says 10). */
  public static final Duration MAX_BACKOFF = Duration.ofMinutes(6);
  static final String MESSAGE_BACKOFF = "Job has reached the specified backoff limit";
  static final String MESSAGE_DEADLINE = "Job was active longer than specified deadline";
  static final String MESSAGE_COMPLETIONS_REACHED = "Reached expected number of succeeded pods";
  static final String MESSAGE_FAILED_INDEXES = "Job has failed indexes";
  static final String MESSAGE_MAX_FAILED_INDEXES = "Job has exceeded the specified maximal number of failed indexes";
  static final String REASON_SUSPENDED = "JobSuspended";
  static final String REASON_RESUMED = "JobResumed";
  private static final int NAME_ATTEMPTS = 8;

  private final CacheExpectations pending = new CacheExpectations();
  private final FinalizerExpectations finalizers = new FinalizerExpectations();
  private final JobBackoffStore backoffs = new JobBackoffStore();
  /** The resourceVersion of each Job's last status write by this reconciler, until the Job finishes or goes. */
  private final Map<ObjectKey, Long> written = new ConcurrentHashMap<>();
  private final Supplier<String> nameSuffixes;

  public JobReconciler(Supplier<String> nameSuffixes) {
    this.nameSuffixes = nameSuffixes;
  }

  /**
   * The selector of {@code job}'s pods: {@code spec.selector}, or when unset the one Kubernetes' API server generates
   * for a Job, {@value WorkloadLabels#JOB_CONTROLLER_UID}{@code =<uid>}, the label the controller puts on every pod
   * it creates.
   */
  public static LabelSelector selectorOf(Job job) {
    LabelSelector s = job.spec().selector();
    return s != null ? s : LabelSelector.of(Map.of(WorkloadLabels.JOB_CONTROLLER_UID, job.metadata().uid()));
  }

  /**
   * Upstream's {@code getPodsForJob}: the pods of {@code job}'s namespace it controls after adopting the orphans its
   * selector matches and releasing those it controls that no longer match ({@link ControllerRefManager}, with the
   * adoption check reading the Job again from {@code store}).
   *
   * @param job the Job as the controller's cache shows it
   */
  public static ControllerRefManager.Claim<Pod> podsForJob(ObjectStore store, Lister<Pod> pods, Job job) {
    return new ControllerRefManager<>(store, job, selectorOf(job), ControllerRefManager.recheckDeletion(store, job),
        List.of(Job.TRACKING_FINALIZER)).claim(pods);
  }

  /** The pods whose tracking finalizer this reconciler removed, until its pod informer shows them without it. */
  public FinalizerExpectations finalizerExpectations() {
    return finalizers;
  }

  /** How many of the controller's writes for {@code key} the cache has not shown yet (for tests). */
  public int pendingWrites(ObjectKey key) {
    return pending.pending(key);
  }

  /**
   * A Job's resourceVersion as a number (FleetKit's stores count up); {@code Long.MAX_VALUE} for another form, which
   * is then never taken as behind.
   */
  private static long version(Job job) {
    try {
      return ResourceVersions.parse(job.metadata().resourceVersion());
    } catch (IllegalArgumentException e) {
      return Long.MAX_VALUE;
    }
  }

  @Override
  public Result reconcile(ReconcileContext<Job> ctx) {
    ObjectKey key = ctx.key();
    Job job = ctx.object().orElse(null);
    if (job == null) {
      pending.forget(key);
      finalizers.forget(key);
      backoffs.remove(key);
      written.remove(key);
      return Result.done();
    }
    Long last = written.get(key);
    if (last != null && version(job) < last) {
      // the cache does not show this controller's last status write yet (a worker ran on another informer's event
      // first): a sync on the older status would count again, or not at all, the pods that write counted, and
      // create pods for completions already reached. The write's own event queues the Job once the cache shows it
      LOG.debug("job {}: cache at resourceVersion {}, behind this controller's status write {}", key,
          job.metadata().resourceVersion(), last);
      return Result.done();
    }
    if (job.spec().managedByExternalController()) {
      // upstream's syncJob: a Job whose spec.managedBy names another controller is that controller's to sync
      LOG.debug("job {}: managed by {}, not synced", key, job.spec().managedBy());
      pending.forget(key);
      return Result.done();
    }
    if (job.status().isFinished()) {
      pending.forget(key);
      backoffs.remove(key);
      written.remove(key);
      return Result.done();
    }
    Instant now = ctx.now();
    JobSpec spec = job.spec();
    boolean indexed = spec.completionMode() == CompletionMode.Indexed;
    // the awaited finalizer removals are read before the pods: a removal the pod cache shows after the list was taken
    // but before this read would otherwise be neither awaited nor seen, and its pod counted a second time
    Set<String> expectedRemovals = finalizers.expectedUids(key);
    ControllerRefManager.Claim<Pod> claim = podsForJob(ctx.store(), ctx.lister(Pod.class), job);
    if (claim.failed()) {
      // upstream's syncJob returns getPodsForJob's error: nothing else is done, the key is retried with backoff
      LOG.debug("job {}: claiming pods failed, requeueing: {}", key, claim.errors());
      return Result.requeue();
    }
    List<Pod> pods = claim.claimed();
    boolean satisfied = pending.satisfied(key, pods,
        name -> ctx.store().get(Pod.class, key.namespace(), name).isPresent(), now);
    if (!satisfied) {
      LOG.debug("job {}: waiting for the pod cache to show {} earlier writes", key, pending.pending(key));
    }
    List<Pod> active = new ArrayList<>();
    int terminating = 0;
    for (Pod p : pods) {
      if (ActivePods.isActive(p)) {
        active.add(p);
      } else if (!p.isTerminal() && p.metadata().deletionTimestamp() != null) {
        terminating++; // controller.IsPodTerminating: being deleted, not terminal yet
      }
    }
    // upstream's syncJob: what the status counted, the uncounted pods, and the pods that finished since
    JobStatus stored = job.status();
    Integer completions = spec.completions();
    PodFailurePolicy failurePolicy = spec.podFailurePolicy();
    List<Pod> newSucceeded = JobPodTracking.newFinishedPods(job, pods, expectedRemovals, true);
    List<Pod> newFailed = JobPodTracking.newFinishedPods(job, pods, expectedRemovals, false);
    int succeeded = stored.succeeded() + stored.uncountedTerminatedPods().succeeded().size() + newSucceeded.size();
    int failed = stored.failed() + stored.uncountedTerminatedPods().failed().size();
    for (Pod p : newFailed) {
      if (PodFailurePolicies.match(failurePolicy, p).countFailed()) {
        failed++; // upstream's nonIgnoredFailedPodsCount
      }
    }
    // upstream's newBackoffRecord: stored once the status counting these pods is written (below)
    JobBackoffRecord backoff = backoffs.newRecord(key, newSucceeded, newFailed);
    IndexIntervals succeededIntervals = IndexIntervals.EMPTY;
    if (indexed && completions != null) {
      succeededIntervals = succeededIndexes(stored, pods, completions);
      succeeded = succeededIntervals.total();
    }
    boolean perIndex = indexed && spec.backoffLimitPerIndex() != null;
    IndexIntervals failedIndexes = perIndex
        ? IndexFailures.failedIndexes(spec, stored.failedIndexes(), pods) : IndexIntervals.EMPTY;

    Instant startTime = stored.startTime();
    List<JobCondition> conditions = new ArrayList<>(stored.conditions());
    boolean deleting = job.metadata().deletionTimestamp() != null;
    if (!spec.suspend() && startTime == null) {
      startTime = now;
    }
    // upstream's syncJob: a Job that met its success policy is not failed any more; then a FailureTarget condition,
    // or a failed pod matching a FailJob rule, decides before the backoff limit and the deadline
    JobCondition finishedCondition = stored.trueCondition(JobCondition.SUCCESS_CRITERIA_MET);
    if (finishedCondition == null) {
      JobCondition failureTarget = stored.trueCondition(JobCondition.FAILURE_TARGET);
      String failJobMessage = failureTarget == null ? failJobMessage(failurePolicy, pods) : null;
      if (failureTarget != null) {
        finishedCondition = condition(JobCondition.FAILED, ConditionStatus.True, failureTarget.reason(),
            failureTarget.message(), now);
      } else if (failJobMessage != null) {
        finishedCondition = condition(JobCondition.FAILURE_TARGET, ConditionStatus.True,
            JobCondition.REASON_POD_FAILURE_POLICY, failJobMessage, now);
      }
    }
    if (finishedCondition == null) {
      if (failed > spec.backoffLimit() || pastBackoffLimitOnFailure(spec, active)) {
        finishedCondition = condition(JobCondition.FAILURE_TARGET, ConditionStatus.True,
            JobCondition.REASON_BACKOFF_LIMIT_EXCEEDED, MESSAGE_BACKOFF, now);
      } else if (pastActiveDeadline(spec, startTime, now)) {
        finishedCondition = condition(JobCondition.FAILURE_TARGET, ConditionStatus.True,
            JobCondition.REASON_DEADLINE_EXCEEDED, MESSAGE_DEADLINE, now);
      }
    }
    Map<Integer, Pod> delayedRemovals = Map.of();
    if (indexed && completions != null) {
      // upstream's syncJob, Indexed Jobs: failed indexes, then the success policy
      if (perIndex && finishedCondition == null) {
        Integer maxFailed = spec.maxFailedIndexes();
        if (maxFailed != null && failedIndexes.total() > maxFailed) {
          finishedCondition = condition(JobCondition.FAILURE_TARGET, ConditionStatus.True,
              JobCondition.REASON_MAX_FAILED_INDEXES_EXCEEDED, MESSAGE_MAX_FAILED_INDEXES, now);
        } else if (failedIndexes.total() > 0 && failedIndexes.total() + succeededIntervals.total() >= completions) {
          finishedCondition = condition(JobCondition.FAILURE_TARGET, ConditionStatus.True,
              JobCondition.REASON_FAILED_INDEXES, MESSAGE_FAILED_INDEXES, now);
        }
      }
      if (perIndex) {
        delayedRemovals = IndexFailures.podsBeingReplaced(spec, pods, active, succeededIntervals, failedIndexes,
            expectedRemovals);
      }
      if (finishedCondition == null) {
        String matched = SuccessPolicies.match(spec.successPolicy(), completions, succeededIntervals);
        if (matched != null) {
          finishedCondition = condition(JobCondition.SUCCESS_CRITERIA_MET, ConditionStatus.True,
              JobCondition.REASON_SUCCESS_POLICY, matched, now);
        }
      }
    }

    RuntimeException failure = null;
    Duration requeue = null;
    if (finishedCondition != null) {
      // upstream's deleteActivePods: a finished Job's active pods go (a met success policy's too), keeping their
      // finalizer until the tracking below has counted them; the Job is not declared finished in a sync that could
      // not delete them all or whose cache is behind
      Deleted d = deleteAll(ctx, active, false);
      if (d.deleted() != active.size() || !satisfied) {
        finishedCondition = null;
      }
      // upstream counts every deleted pod as terminating in this sync: the terminal condition waits for the sync
      // that the deletions' events bring
      terminating += d.deleted();
      active = d.remaining();
      failure = d.error();
    } else {
      boolean managed = false;
      if (!deleting && satisfied) {
        managed = true;
        try {
          if (spec.suspend()) {
            Deleted d = deleteAll(ctx, active, true);
            terminating += d.deleted();
            active = d.remaining();
            failure = d.error();
          } else {
            Manage m = manage(ctx, job, active, backoff, succeeded, succeededIntervals, failedIndexes,
                delayedRemovals, terminating, now);
            active = m.active();
            terminating += m.terminating();
            requeue = m.requeue();
            failure = m.error();
          }
        } catch (RuntimeException e) {
          failure = e;
        }
      }
      boolean complete = completions == null ? succeeded > 0 && active.isEmpty()
          : succeeded >= completions && active.isEmpty();
      if (complete) {
        // upstream's newSuccessCondition: SuccessCriteriaMet first, Complete with its reason once no pod terminates
        finishedCondition = condition(JobCondition.SUCCESS_CRITERIA_MET, ConditionStatus.True,
            JobCondition.REASON_COMPLETIONS_REACHED, MESSAGE_COMPLETIONS_REACHED, now);
      } else if (managed) {
        if (spec.suspend()) {
          startTime = null;
          if (setCondition(conditions, JobCondition.SUSPENDED, ConditionStatus.True, REASON_SUSPENDED,
              "Job suspended", now)) {
            LOG.debug("job {}: suspended", key);
          }
        } else if (stored.isConditionTrue(JobCondition.SUSPENDED)) {
          setCondition(conditions, JobCondition.SUSPENDED, ConditionStatus.False, REASON_RESUMED, "Job resumed", now);
          startTime = now; // activeDeadlineSeconds counts from the resumption
        }
      }
    }
    int ready = 0;
    for (Pod p : active) {
      if (p.isReady()) {
        ready++;
      }
    }
    JobStatus status = new JobStatus(active.size(), stored.succeeded(), stored.failed(), ready, conditions,
        startTime, stored.completionTime(), stored.completedIndexes(), terminating, stored.failedIndexes(),
        stored.uncountedTerminatedPods());
    JobPodTracking.Sync sync = new JobPodTracking.Sync(job.withStatus(status), pods, finishedCondition,
        expectedRemovals, terminating, perIndex ? failedIndexes : null, delayedRemovals);
    JobPodTracking.Outcome outcome;
    try {
      outcome = JobPodTracking.track(sync, !status.equals(stored), now, j -> {
            Job w = ctx.store().updateStatus(j);
            written.put(key, version(w));
            return w;
          },
          toRemove -> removeFinalizers(ctx, toRemove), () -> backoffs.update(backoff));
    } catch (ConflictException | NotFoundException e) {
      LOG.debug("job {}: status update lost a race ({}), requeueing", key, e.getMessage());
      return Result.requeue();
    }
    if (failure != null) {
      throw failure;
    }
    if (finishedCondition != null || outcome.finished()) {
      return Result.done(); // finished, or waiting for pods to be counted or to terminate: their events come back
    }
    Long deadline = spec.activeDeadlineSeconds();
    if (deadline != null && startTime != null && !spec.suspend()) {
      Duration left = Duration.between(now, startTime.plusSeconds(deadline));
      if (left.isNegative()) {
        left = Duration.ZERO;
      }
      requeue = requeue == null || left.compareTo(requeue) < 0 ? left : requeue;
    }
    return requeue == null ? Result.done() : Result.requeueAfter(requeue);
  }

  /**
   * Upstream's {@code calculateSucceededIndexes}: the indexes of {@code status.completedIndexes} below
   * {@code completions}, and those of the succeeded pods not counted yet (they still have the finalizer).
   */
  static IndexIntervals succeededIndexes(JobStatus status, List<Pod> pods, int completions) {
    TreeSet<Integer> fresh = new TreeSet<>();
    for (Pod p : pods) {
      int ix = index(p, completions);
      if (p.status().phase() == PodPhase.Succeeded && ix >= 0 && JobPodTracking.hasTrackingFinalizer(p)) {
        fresh.add(ix);
      }
    }
    return IndexIntervals.parse(status.completedIndexes(), completions).withOrderedIndexes(fresh);
  }

  /**
   * Upstream's {@code removeTrackingFinalizerFromPods}: the UIDs are expected removed first; a removal that fails
   * is no longer expected.
   */
  private JobPodTracking.Removal removeFinalizers(ReconcileContext<Job> ctx, List<Pod> toRemove) {
    ObjectKey key = ctx.key();
    List<String> uids = new ArrayList<>(toRemove.size());
    for (Pod p : toRemove) {
      uids.add(p.metadata().uid());
    }
    finalizers.expectRemovals(key, uids);
    Set<String> removed = new HashSet<>();
    RuntimeException error = null;
    for (Pod p : toRemove) {
      String uid = p.metadata().uid();
      RuntimeException e = null;
      try {
        if (!JobOrphanPodReconciler.removeTrackingFinalizer(ctx.store(), p)) {
          e = new ConflictException("pod " + p.metadata().key() + ": removing " + Job.TRACKING_FINALIZER
              + " kept conflicting");
        }
      } catch (RuntimeException ex) {
        e = ex;
      }
      if (e == null) {
        removed.add(uid);
      } else {
        finalizers.observed(key, uid);
        LOG.debug("job {}: removing the tracking finalizer of pod {} failed: {}", key, p.metadata().name(),
            e.getMessage());
        if (error == null) {
          error = e;
        }
      }
    }
    return new JobPodTracking.Removal(removed, error);
  }

  /**
   * What {@link #manage} did: the active pods after its writes, when to look again, and the first write that failed
   * (the status still counts the writes that succeeded before or beside it, as upstream's {@code manageJob} returns
   * its {@code active} together with the error).
   */
  private record Manage(List<Pod> active, @Nullable Duration requeue, @Nullable RuntimeException error,
      int terminating) {}

  /**
   * What {@link #deleteAll} did: how many pods it deleted, the pods left active (their deletion failed), and the
   * first failure.
   */
  private record Deleted(int deleted, List<Pod> remaining, @Nullable RuntimeException error) {}

  /**
   * Upstream's {@code manageJob}: delete surplus (bad indexes first) or create missing pods, never both. Every
   * deletion is attempted even when one fails; creations stop after the slow-start batch that had a failure.
   */
  private Manage manage(ReconcileContext<Job> ctx, Job job, List<Pod> active, JobBackoffRecord backoff, int succeeded,
      IndexIntervals succeededIndexes, IndexIntervals failedIndexes, Map<Integer, Pod> delayedRemovals,
      int terminating, Instant now) {
    JobSpec spec = job.spec();
    Integer completions = spec.completions();
    boolean indexed = spec.completionMode() == CompletionMode.Indexed;
    boolean perIndex = indexed && spec.backoffLimitPerIndex() != null;
    int wantActive;
    if (completions == null) {
      wantActive = succeeded > 0 ? active.size() : spec.parallelism();
    } else {
      // a failed index is not retried: it needs no pod
      wantActive = Math.max(0, Math.min(spec.parallelism(), completions - succeeded - failedIndexes.total()));
    }
    List<Pod> toDelete = new ArrayList<>();
    List<Pod> kept = new ArrayList<>();
    if (indexed) {
      Set<Integer> seen = new HashSet<>();
      List<Pod> sorted = new ArrayList<>(active);
      sorted.sort(ActivePods.order().reversed()); // of duplicates keep the most advanced pod
      for (Pod p : sorted) {
        int ix = index(p, completions);
        if (ix < 0 || succeededIndexes.has(ix) || failedIndexes.has(ix) || !seen.add(ix)) {
          toDelete.add(p);
        } else {
          kept.add(p);
        }
      }
    } else {
      kept.addAll(active);
    }
    if (kept.size() > wantActive) {
      kept.sort(ActivePods.order());
      int surplus = kept.size() - wantActive;
      toDelete.addAll(kept.subList(0, surplus));
      kept = new ArrayList<>(kept.subList(surplus, kept.size()));
    }
    ObjectKey key = ctx.key();
    if (!toDelete.isEmpty()) {
      List<Pod> remaining = new ArrayList<>(active);
      RuntimeException error = null;
      int deleted = 0;
      for (Pod p : toDelete) {
        try {
          delete(ctx, key, p, true);
          deleted++; // upstream counts a deleted pod as terminating in this sync
          remaining.remove(p);
        } catch (RuntimeException e) {
          // upstream's deleteJobPods: a refused delete leaves the pod counted active; the others are still tried
          if (error == null) {
            error = e;
          }
        }
      }
      return new Manage(remaining, null, error, deleted);
    }
    // upstream's onlyReplaceFailedPods: with podReplacementPolicy Failed a terminating pod is not replaced yet
    int diff = wantActive - active.size()
        - (spec.effectivePodReplacementPolicy() == PodReplacementPolicy.Failed ? terminating : 0);
    if (diff <= 0) {
      return new Manage(active, null, null, 0);
    }
    // upstream's getRemainingTime; with backoffLimitPerIndex each index waits for its own failures (below)
    Duration wait = perIndex ? null : positive(backoff.remainingTime(now, DEFAULT_BACKOFF, MAX_BACKOFF));
    if (wait != null) {
      LOG.debug("job {}: pod failure backoff, creating {} pods in {}", key, diff, wait);
      return new Manage(active, wait, null, 0);
    }
    List<Integer> indexes = new ArrayList<>();
    Map<Integer, Pod> replaced = Map.of();
    if (indexed) {
      indexes = firstPendingIndexes(active, succeededIndexes, failedIndexes, diff,
          completions == null ? 0 : completions);
      if (perIndex) {
        // upstream's getPodCreationInfoForIndependentIndexes: an index whose last failure's backoff has not
        // passed waits; the Job is looked at again when the first of them may go
        replaced = delayedRemovals;
        List<Integer> ready = new ArrayList<>();
        for (int ix : indexes) {
          Pod last = replaced.get(ix);
          Duration left = positive(IndexFailures.remainingBackoff(last, now));
          if (left == null) {
            ready.add(ix);
          } else if (wait == null || left.compareTo(wait) < 0) {
            wait = left;
          }
        }
        indexes = ready;
      }
      diff = indexes.size();
    }
    List<Pod> result = new ArrayList<>(active);
    int[] next = {0};
    List<Integer> toCreate = indexes;
    Map<Integer, Pod> beingReplaced = replaced;
    SlowStartBatch.Outcome outcome = SlowStartBatch.run(diff, ReplicaSetReconciler.SLOW_START_INITIAL_BATCH_SIZE,
        () -> {
          Integer ix = indexed ? toCreate.get(next[0]++) : null;
          int[] counts = perIndex && ix != null
              ? IndexFailures.newIndexFailureCounts(spec, beingReplaced.get(ix)) : null;
          Pod created = createPod(ctx, job, ix, counts);
          pending.created(key, created.metadata().name(), now);
          result.add(created);
        });
    // the pods created before a failure count as active, as upstream's manageJob returns active with the error
    return new Manage(result, wait, outcome.error(), 0);
  }

  /**
   * Upstream's {@code firstPendingIndexes}: the lowest {@code count} indexes below {@code completions} that neither
   * succeeded, failed nor have an active pod.
   */
  static List<Integer> firstPendingIndexes(List<Pod> active, IndexIntervals succeeded, IndexIntervals failed,
      int count, int completions) {
    Set<Integer> taken = new HashSet<>();
    for (Pod p : active) {
      taken.add(index(p, Integer.MAX_VALUE)); // upstream's getCompletionIndex: any valid index
    }
    List<Integer> result = new ArrayList<>();
    for (int i = 0; i < completions && result.size() < count; i++) {
      if (!taken.contains(i) && !succeeded.has(i) && !failed.has(i)) {
        result.add(i);
      }
    }
    return result;
  }

  /**
   * Deletes every pod of {@code active}, trying every deletion even when one fails: upstream's
   * {@code deleteActivePods} for a finished Job ({@code removeFinalizer} false: the tracking counts the pods and
   * removes their finalizers), its {@code deleteJobPods} for a suspended one ({@code removeFinalizer} true).
   */
  private Deleted deleteAll(ReconcileContext<Job> ctx, List<Pod> active, boolean removeFinalizer) {
    List<Pod> remaining = new ArrayList<>();
    RuntimeException error = null;
    int deleted = 0;
    for (Pod p : active) {
      try {
        delete(ctx, ctx.key(), p, removeFinalizer);
        deleted++;
      } catch (RuntimeException e) {
        remaining.add(p);
        if (error == null) {
          error = e;
        }
      }
    }
    return new Deleted(deleted, remaining, error);
  }

  /**
   * Deletes one pod; with {@code removeFinalizer}, as upstream's {@code deleteJobPods}, its tracking finalizer is
   * removed first (a pod the Job deletes while it goes on is not counted, and must not stay after its deletion). A
   * pod already gone, or replaced by one of the same name, needs nothing.
   *
   * @throws RuntimeException the store refused the finalizer removal or the deletion
   */
  private void delete(ReconcileContext<Job> ctx, ObjectKey key, Pod p, boolean removeFinalizer) {
    if (removeFinalizer && !JobOrphanPodReconciler.removeTrackingFinalizer(ctx.store(), p)) {
      throw new ConflictException("pod " + p.metadata().key() + ": removing " + Job.TRACKING_FINALIZER
          + " kept conflicting");
    }
    try {
      ctx.store().delete(Pod.class, p.metadata().namespace(), p.metadata().name(),
          DeletePreconditions.uid(p.metadata().uid()));
      pending.deleted(key, p.metadata().name(), ctx.now());
    } catch (NotFoundException | ConflictException e) {
      // already gone, or replaced by a pod of the same name: nothing to wait for
    }
  }

  /**
   * Upstream's {@code getFailJobMessage}: the message of the first failed pod (phase Failed) that matches a
   * {@code FailJob} rule, or {@code null}.
   */
  static @Nullable String failJobMessage(@Nullable PodFailurePolicy policy, List<Pod> pods) {
    if (policy == null) {
      return null;
    }
    for (Pod p : pods) {
      if (p.status().phase() == PodPhase.Failed) {
        String message = PodFailurePolicies.match(policy, p).jobFailureMessage();
        if (message != null) {
          return message;
        }
      }
    }
    return null;
  }

  /**
   * Creates one pod of {@code job}; {@code indexFailureCounts}: with backoffLimitPerIndex, the failure and ignored
   * failure counts of its index (upstream's {@code addIndexFailureCountAnnotation}).
   */
  private Pod createPod(ReconcileContext<Job> ctx, Job job, @Nullable Integer index,
      int @Nullable [] indexFailureCounts) {
    ObjectMeta tm = job.spec().template().metadata();
    String base = job.metadata().name() + (index == null ? "" : "-" + index);
    if (base.length() > 57) {
      base = base.substring(0, 57);
    }
    PodSpec spec = job.spec().template().spec();
    if (index != null) {
      spec = withIndexEnv(spec, index);
    }
    ConflictException last = null;
    for (int attempt = 0; attempt < NAME_ATTEMPTS; attempt++) {
      ObjectMeta.Builder mb = ObjectMeta.builder()
          .namespace(job.metadata().namespace())
          .name(base + "-" + nameSuffixes.get())
          .labels(tm.labels())
          .annotations(tm.annotations())
          .finalizers(withTrackingFinalizer(tm.finalizers()))
          .label(WorkloadLabels.JOB_CONTROLLER_UID, job.metadata().uid())
          .label(WorkloadLabels.JOB_NAME, job.metadata().name())
          .ownerReference(OwnerReference.controllerOf(job));
      if (index != null) {
        mb.annotation(WorkloadLabels.JOB_COMPLETION_INDEX, Integer.toString(index))
            .label(WorkloadLabels.JOB_COMPLETION_INDEX, Integer.toString(index))
            .annotation(WorkloadLabels.HOSTNAME, job.metadata().name() + "-" + index);
      }
      if (indexFailureCounts != null) {
        mb.annotation(WorkloadLabels.JOB_INDEX_FAILURE_COUNT, Integer.toString(indexFailureCounts[0]));
        if (indexFailureCounts[1] > 0) {
          mb.annotation(WorkloadLabels.JOB_INDEX_IGNORED_FAILURE_COUNT, Integer.toString(indexFailureCounts[1]));
        }
      }
      try {
        TraceParent.inherit(job.metadata(), mb);
        Pod created = ctx.store().create(new Pod(mb.build(), spec, PodStatus.PENDING));
        ctx.events().event(job, Event.NORMAL, EventRecorder.SUCCESSFUL_CREATE, "Create", "Created pod: "
            + created.metadata().name());
        return created;
      } catch (ConflictException e) {
        last = e; // name taken: draw another suffix, as the API server does for generateName
      } catch (RuntimeException e) {
        // upstream's RealPodControl: a refused create (a quota, a missing namespace) is a Warning event
        ctx.events().event(job, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating: "
            + e.getMessage());
        throw e;
      }
    }
    ctx.events().event(job, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating: "
        + last.getMessage());
    throw last;
  }

  /** Upstream's {@code appendJobCompletionFinalizerIfNotFound}: the template's finalizers and the tracking one. */
  static List<String> withTrackingFinalizer(List<String> finalizers) {
    if (finalizers.contains(Job.TRACKING_FINALIZER)) {
      return finalizers;
    }
    List<String> out = new ArrayList<>(finalizers);
    out.add(Job.TRACKING_FINALIZER);
    return out;
  }

  /** Every container (and init container) gets {@value WorkloadLabels#JOB_COMPLETION_INDEX_ENV}. */
  static PodSpec withIndexEnv(PodSpec spec, int index) {
    return spec.toBuilder().containers(withEnv(spec.containers(), index))
        .initContainers(withEnv(spec.initContainers(), index)).build();
  }

  private static List<Container> withEnv(List<Container> containers, int index) {
    List<Container> out = new ArrayList<>(containers.size());
    for (Container c : containers) {
      List<EnvVar> env = new ArrayList<>();
      for (EnvVar e : c.env()) {
        if (!e.name().equals(WorkloadLabels.JOB_COMPLETION_INDEX_ENV)) {
          env.add(e);
        }
      }
      env.add(new EnvVar(WorkloadLabels.JOB_COMPLETION_INDEX_ENV, Integer.toString(index)));
      out.add(c.withEnv(env));
    }
    return out;
  }

  /** The completion index of a pod: annotation, valid and below {@code completions}; else -1. */
  public static int index(Pod p, @Nullable Integer completions) {
    String v = p.metadata().annotations().get(WorkloadLabels.JOB_COMPLETION_INDEX);
    if (v == null || completions == null) {
      return -1;
    }
    try {
      int ix = GoIntegers.atoi32(v); // getCompletionIndex: strconv.Atoi
      return ix >= 0 && ix < completions ? ix : -1;
    } catch (NumberFormatException e) {
      return -1;
    }
  }

  /** Upstream's interval form of succeeded indexes: {@code "1,3-5,7"}; two in a row are written {@code "0,1"}. */
  public static String formatIndexes(Iterable<Integer> sortedIndexes) {
    StringBuilder sb = new StringBuilder();
    Integer first = null;
    Integer last = null;
    for (int ix : sortedIndexes) {
      if (last != null && ix == last + 1) {
        last = ix;
        continue;
      }
      appendInterval(sb, first, last);
      first = ix;
      last = ix;
    }
    appendInterval(sb, first, last);
    return sb.toString();
  }

  private static void appendInterval(StringBuilder sb, @Nullable Integer first, @Nullable Integer last) {
    if (first == null || last == null) {
      return;
    }
    if (sb.length() > 0) {
      sb.append(',');
    }
    sb.append(first);
    if (last == first + 1) {
      sb.append(',').append(last);
    } else if (last > first) {
      sb.append('-').append(last);
    }
  }

  /** Upstream's {@code pastBackoffLimitOnFailure}: container and init container restarts of running or pending pods. */
  static boolean pastBackoffLimitOnFailure(JobSpec spec, List<Pod> active) {
    if (spec.template().spec().restartPolicy() != RestartPolicy.OnFailure) {
      return false;
    }
    int restarts = 0;
    for (Pod p : active) {
      if (p.status().phase() == PodPhase.Running || p.status().phase() == PodPhase.Pending) {
        for (ContainerStatus s : p.status().initContainerStatuses()) {
          restarts += s.restartCount();
        }
        for (ContainerStatus s : p.status().containerStatuses()) {
          restarts += s.restartCount();
        }
      }
    }
    return spec.backoffLimit() == 0 ? restarts > 0 : restarts >= spec.backoffLimit();
  }

  /** Upstream's {@code pastActiveDeadline}: at least activeDeadlineSeconds since the start. */
  static boolean pastActiveDeadline(JobSpec spec, @Nullable Instant start, Instant now) {
    Long deadline = spec.activeDeadlineSeconds();
    if (deadline == null || start == null || spec.suspend()) {
      return false;
    }
    return !Duration.between(start, now).minusSeconds(deadline).isNegative();
  }

  /** {@code d}, or {@code null} when it is zero: nothing to wait. */
  private static @Nullable Duration positive(Duration d) {
    return d.isZero() || d.isNegative() ? null : d;
  }

  private static JobCondition condition(String type, ConditionStatus status, String reason, String message,
      Instant now) {
    return new JobCondition(type, status, reason, message, now, now);
  }

  /** Sets the condition of that type (replacing it when status or reason differ); whether anything changed. */
  static boolean setCondition(List<JobCondition> conditions, String type, ConditionStatus status,
      String reason, String message, Instant now) {
    for (int i = 0; i < conditions.size(); i++) {
      JobCondition c = conditions.get(i);
      if (c.type().equals(type)) {
        if (c.status() == status && c.reason().equals(reason)) {
          return false;
        }
        conditions.set(i, condition(type, status, reason, message, now));
        return true;
      }
    }
    conditions.add(condition(type, status, reason, message, now));
    return true;
  }
}
