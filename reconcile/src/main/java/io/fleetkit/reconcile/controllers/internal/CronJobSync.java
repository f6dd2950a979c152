package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.ConflictException;
import io.fleetkit.api.NotFoundException;
import io.fleetkit.api.batch.ConcurrencyPolicy;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.CronJobStatus;
import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One sync of a CronJob, after Kubernetes' {@code pkg/controller/cronjob/cronjob_controllerv2.go}
 * ({@code syncCronJob}, {@code cleanupFinishedJobs}, {@code removeOldestJobs}, {@code deleteJob},
 * {@code formatSchedule}). The CronJob is a working copy whose status the steps change; {@link #updateStatus()} says
 * whether it must be written back. Reads and writes of Jobs go through {@link Jobs}, so that tests can fail them as
 * upstream's fakes do. One instance per sync; not thread-safe.
 */
public final class CronJobSync {
  /** Event reasons, with upstream's spelling. */
  public static final String SAW_COMPLETED_JOB = "SawCompletedJob";
  public static final String UNEXPECTED_JOB = "UnexpectedJob";
  public static final String MISSING_JOB = "MissingJob";
  public static final String UNKNOWN_TIME_ZONE = "UnknownTimeZone";
  public static final String UNSUPPORTED_SCHEDULE = "UnsupportedSchedule";
  public static final String UNPARSEABLE_SCHEDULE = "UnparseableSchedule";
  public static final String INVALID_SCHEDULE = "InvalidSchedule";
  public static final String MISS_SCHEDULE = "MissSchedule";
  public static final String JOB_ALREADY_ACTIVE = "JobAlreadyActive";
  public static final String FAILED_GET = "FailedGet";
  private static final String ACTION = "Schedule";
  /** Go's {@code time.RFC1123Z}, as the MissSchedule event writes the missed time. */
  private static final DateTimeFormatter RFC1123Z =
      DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss xx", Locale.ENGLISH);

  /** The CronJob controller's access to Jobs and to the current CronJob (upstream's jobControl, cronJobControl). */
  public interface Jobs {
    /**
     * The Job, or empty when it does not exist.
     *
     * @throws RuntimeException when the read fails
     */
    Optional<Job> get(String namespace, String name);

    /**
     * Creates {@code job}.
     *
     * @throws ConflictException when a Job of that name exists
     * @throws RuntimeException when the write fails otherwise
     */
    Job create(Job job);

    /**
     * Deletes the Job (its pods follow through the garbage collector).
     *
     * @throws RuntimeException when the delete fails
     */
    void delete(String namespace, String name);

    /** The CronJob as stored now, or empty. */
    Optional<CronJob> cronJob(String namespace, String name);
  }

  /**
   * What {@link #sync} decided.
   *
   * @param requeueAfter when to look at the CronJob again, or {@code null} (suspended, broken schedule, or an error)
   * @param error why the sync failed (retry with backoff), or {@code null}
   */
  public record Outcome(@Nullable Duration requeueAfter, @Nullable RuntimeException error) {}

  private final Jobs jobs;
  private final EventRecorder events;
  private CronJob cj;
  private boolean updateStatus;

  public CronJobSync(CronJob cronJob, Jobs jobs, EventRecorder events) {
    this.cj = cronJob;
    this.jobs = jobs;
    this.events = events;
  }

  /** The working copy, with the status the sync computed. */
  public CronJob cronJob() {
    return cj;
  }

  /** Whether the status changed and must be written. */
  public boolean updateStatus() {
    return updateStatus;
  }

  /**
   * Upstream's {@code getJobsToBeReconciled}: the Jobs of the CronJob's namespace whose controller reference names it
   * (matching labels do not matter; as upstream, the name alone is compared).
   */
  public static List<Job> jobsToBeReconciled(CronJob cj, List<Job> jobsOfNamespace) {
    List<Job> out = new ArrayList<>();
    for (Job j : jobsOfNamespace) {
      OwnerReference ref = j.metadata().controllerRef();
      if (ref != null && ref.name().equals(cj.metadata().name())
          && j.metadata().namespace().equals(cj.metadata().namespace())) {
        out.add(j);
      }
    }
    return out;
  }

  /** Upstream's {@code syncCronJob}. */
  public Outcome sync(List<Job> children, Instant now) {
    Set<String> childUids = new HashSet<>();
    for (Job j : children) {
      String uid = j.metadata().uid();
      childUids.add(uid);
      boolean found = inActiveList(cj, uid);
      boolean finished = j.status().isFinished();
      if (!found && !finished) {
        Optional<CronJob> current;
        try {
          current = jobs.cronJob(cj.metadata().namespace(), cj.metadata().name());
        } catch (RuntimeException e) {
          return new Outcome(null, e);
        }
        if (current.isPresent() && inActiveList(current.get(), uid)) {
          cj = current.get();
          continue;
        }
        // created just before a crash, or a Job someone meant the CronJob to adopt
        events.event(cj, Event.WARNING, UNEXPECTED_JOB, ACTION,
            "Saw a job that the controller did not create or forgot: " + j.metadata().name());
      } else if (found && finished) {
        removeFromActive(uid);
        events.event(cj, Event.NORMAL, SAW_COMPLETED_JOB, ACTION,
            "Saw completed job: " + j.metadata().name() + ", status: " + finishedType(j));
        updateStatus = true;
      } else if (succeeded(j)) {
        Instant completion = j.status().completionTime();
        Instant last = cj.status().lastSuccessfulTime();
        if (last == null) {
          setStatus(cj.status().withLastSuccessfulTime(completion));
          updateStatus = true;
          last = completion;
        }
        if (completion != null && last != null && completion.isAfter(last)) {
          setStatus(cj.status().withLastSuccessfulTime(completion));
          updateStatus = true;
        }
      }
    }

    // an active Job that no longer exists would keep the CronJob active forever
    for (ObjectReference ref : List.copyOf(cj.status().active())) {
      if (childUids.contains(ref.uid())) {
        continue;
      }
      Optional<Job> job;
      try {
        job = jobs.get(ref.namespace(), ref.name());
      } catch (RuntimeException e) {
        return new Outcome(null, e);
      }
      if (job.isEmpty()) {
        events.event(cj, Event.NORMAL, MISSING_JOB, ACTION, "Active job went missing: " + ref.name());
        removeFromActive(ref.uid());
        updateStatus = true;
      }
    }

    if (cj.metadata().deletionTimestamp() != null) {
      return new Outcome(null, null);
    }
    String timeZone = cj.spec().timeZone();
    if (timeZone != null && CronSchedule.zone(timeZone) == null) {
      events.event(cj, Event.WARNING, UNKNOWN_TIME_ZONE, ACTION,
          "invalid timeZone: \"" + timeZone + "\": unknown time zone " + timeZone);
      return new Outcome(null, null);
    }
    if (cj.spec().suspend()) {
      return new Outcome(null, null);
    }
    CronSchedule sched;
    try {
      sched = CronSchedule.parse(formatSchedule(cj, events));
    } catch (IllegalArgumentException e) {
      events.event(cj, Event.WARNING, UNPARSEABLE_SCHEDULE, ACTION,
          "unparseable schedule: \"" + cj.spec().schedule() + "\" : " + e.getMessage());
      return new Outcome(null, null);
    }
    CronJobSchedules.Next next = CronJobSchedules.nextScheduleTime(cj, now, sched, events);
    if (next.error() != null) {
      events.event(cj, Event.WARNING, INVALID_SCHEDULE, ACTION,
          "invalid schedule: " + cj.spec().schedule() + " : " + next.error());
      return new Outcome(null, null);
    }
    Instant scheduled = next.scheduled();
    if (scheduled == null) {
      return requeue(now, sched);
    }
    Long sds = cj.spec().startingDeadlineSeconds();
    if (sds != null && scheduled.plusSeconds(sds).isBefore(now)) {
      events.event(cj, Event.WARNING, MISS_SCHEDULE, ACTION,
          "Missed scheduled time to start a job: " + RFC1123Z.format(scheduled.atOffset(ZoneOffset.UTC)));
      return requeue(now, sched);
    }
    String name = CronJobSchedules.jobName(cj, scheduled);
    if (inActiveListByName(cj, name) || scheduled.equals(cj.status().lastScheduleTime())) {
      return requeue(now, sched); // this scheduled time was handled already
    }
    ConcurrencyPolicy policy = cj.spec().concurrencyPolicy();
    if (policy == ConcurrencyPolicy.Forbid && !cj.status().active().isEmpty()) {
      events.event(cj, Event.NORMAL, JOB_ALREADY_ACTIVE, ACTION,
          "Not starting job because prior execution is running and concurrency policy is Forbid");
      return requeue(now, sched);
    }
    if (policy == ConcurrencyPolicy.Replace) {
      for (ObjectReference ref : List.copyOf(cj.status().active())) {
        Job job;
        try {
          job = jobs.get(ref.namespace(), ref.name()).orElseThrow(() -> new NotFoundException(
              "jobs.batch \"" + ref.name() + "\" not found"));
        } catch (RuntimeException e) {
          events.event(cj, Event.WARNING, FAILED_GET, ACTION, "Get job: " + e.getMessage());
          return new Outcome(null, e);
        }
        if (!deleteJob(job)) {
          return new Outcome(null, new IllegalStateException("could not replace job "
              + job.metadata().namespace() + "/" + job.metadata().name()));
        }
        updateStatus = true;
      }
    }

    Job request = CronJobSchedules.jobFromTemplate(cj, scheduled);
    Job created;
    boolean alreadyExists = false;
    try {
      created = jobs.create(request);
    } catch (ConflictException e) {
      // created earlier by this controller (the status write failed) or by someone else
      alreadyExists = true;
      Optional<Job> existing;
      try {
        existing = jobs.get(request.metadata().namespace(), request.metadata().name());
      } catch (RuntimeException ge) {
        return new Outcome(null, ge);
      }
      if (existing.isEmpty()) {
        return new Outcome(null, e);
      }
      created = existing.get();
      if (!controlledBy(created, cj) || inActiveList(cj, created.metadata().uid())) {
        return new Outcome(null, null);
      }
    } catch (RuntimeException e) {
      events.event(cj, Event.WARNING, EventRecorder.FAILED_CREATE, "Create", "Error creating job: " + e.getMessage());
      return new Outcome(null, e);
    }
    if (!alreadyExists) {
      events.event(cj, Event.NORMAL, EventRecorder.SUCCESSFUL_CREATE, "Create",
          "Created job " + created.metadata().name());
    }
    List<ObjectReference> active = new ArrayList<>(cj.status().active());
    active.add(ObjectReference.to(created));
    setStatus(cj.status().withActive(active).withLastScheduleTime(scheduled));
    updateStatus = true;
    return requeue(now, sched);
  }

  private Outcome requeue(Instant now, CronSchedule sched) {
    return new Outcome(CronJobSchedules.nextScheduleTimeDuration(cj, now, sched), null);
  }

  /**
   * Upstream's {@code cleanupFinishedJobs}: deletes the oldest finished Jobs beyond the history limits (successful
   * and failed counted apart), oldest start first. Returns whether the status changed.
   */
  public boolean cleanupFinishedJobs(List<Job> children) {
    Integer successfulLimit = cj.spec().successfulJobsHistoryLimit();
    Integer failedLimit = cj.spec().failedJobsHistoryLimit();
    if (successfulLimit == null && failedLimit == null) {
      return false;
    }
    List<Job> successful = new ArrayList<>();
    List<Job> failed = new ArrayList<>();
    for (Job j : children) {
      String type = finishedType(j);
      if (JobCondition.COMPLETE.equals(type)) {
        successful.add(j);
      } else if (JobCondition.FAILED.equals(type)) {
        failed.add(j);
      }
    }
    boolean changed = false;
    if (successfulLimit != null && removeOldestJobs(successful, successfulLimit)) {
      changed = true;
    }
    if (failedLimit != null && removeOldestJobs(failed, failedLimit)) {
      changed = true;
    }
    updateStatus |= changed;
    return changed;
  }

  private boolean removeOldestJobs(List<Job> finished, int keep) {
    int toDelete = finished.size() - keep;
    if (toDelete <= 0) {
      return false;
    }
    List<Job> sorted = new ArrayList<>(finished);
    sorted.sort(CronJobSchedules.BY_START_TIME);
    boolean changed = false;
    for (int i = 0; i < toDelete; i++) {
      if (deleteJob(sorted.get(i))) {
        changed = true;
      }
    }
    return changed;
  }

  /** Upstream's {@code deleteJob}: deletes the Job and drops it from the active list. */
  private boolean deleteJob(Job job) {
    try {
      jobs.delete(job.metadata().namespace(), job.metadata().name());
    } catch (RuntimeException e) {
      events.event(cj, Event.WARNING, EventRecorder.FAILED_DELETE, "Delete", "Deleted job: " + e.getMessage());
      return false;
    }
    removeFromActive(job.metadata().uid());
    events.event(cj, Event.NORMAL, EventRecorder.SUCCESSFUL_DELETE, "Delete",
        "Deleted job " + job.metadata().name());
    return true;
  }

  /**
   * Upstream's {@code formatSchedule}: a schedule with its own {@code TZ}/{@code CRON_TZ} is used as written (with an
   * {@value #UNSUPPORTED_SCHEDULE} warning); otherwise a valid {@code timeZone} is prefixed as {@code TZ=<zone>}.
   */
  static String formatSchedule(CronJob cj, @Nullable EventRecorder events) {
    String schedule = cj.spec().schedule();
    if (schedule.contains("TZ")) {
      if (events != null) {
        events.event(cj, Event.WARNING, UNSUPPORTED_SCHEDULE, ACTION, "CRON_TZ or TZ used in schedule \""
            + schedule + "\" is not officially supported, see "
            + "https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details");
      }
      return schedule;
    }
    String tz = cj.spec().timeZone();
    if (tz != null && CronSchedule.zone(tz) != null) {
      return "TZ=" + tz + " " + schedule;
    }
    return schedule;
  }

  private void setStatus(CronJobStatus status) {
    cj = cj.withStatus(status);
  }

  private void removeFromActive(String uid) {
    List<ObjectReference> kept = new ArrayList<>();
    for (ObjectReference r : cj.status().active()) {
      if (!r.uid().equals(uid)) {
        kept.add(r);
      }
    }
    setStatus(cj.status().withActive(kept));
  }

  static boolean inActiveList(CronJob cj, String uid) {
    for (ObjectReference r : cj.status().active()) {
      if (r.uid().equals(uid)) {
        return true;
      }
    }
    return false;
  }

  private static boolean inActiveListByName(CronJob cj, String name) {
    for (ObjectReference r : cj.status().active()) {
      if (r.name().equals(name) && r.namespace().equals(cj.metadata().namespace())) {
        return true;
      }
    }
    return false;
  }

  private static boolean controlledBy(Job job, CronJob cj) {
    return job.metadata().isControlledBy(cj.metadata().uid());
  }

  /** {@code Complete} or {@code Failed} when that condition is True, else {@code null}. */
  static @Nullable String finishedType(Job j) {
    JobCondition c = j.status().finishedCondition();
    return c == null ? null : c.type();
  }

  private static boolean succeeded(Job j) {
    return j.status().isConditionTrue(JobCondition.COMPLETE);
  }
}
