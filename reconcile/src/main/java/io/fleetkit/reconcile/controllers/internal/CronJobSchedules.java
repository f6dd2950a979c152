package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.CronSchedule;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.events.Event;
import io.fleetkit.api.events.EventRecorder;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.api.meta.OwnerReference;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The schedule arithmetic and Job stamping of Kubernetes' {@code pkg/controller/cronjob/utils.go}:
 * {@code mostRecentScheduleTime}, {@code nextScheduleTimeDuration}, {@code nextScheduleTime},
 * {@code getJobFromTemplate2}, {@code getJobName} and {@code byJobStartTime}. Pure functions of their arguments (the
 * time is passed in; nothing reads a clock). Thread-safe.
 */
public final class CronJobSchedules {
  /** Upstream's {@code nextScheduleDelta}: the padding added to every requeue, against clock skew. */
  public static final Duration NEXT_SCHEDULE_DELTA = Duration.ofMillis(100);
  /** More missed start times than this is {@link Missed#MANY} (upstream's somewhat arbitrary 100). */
  public static final int TOO_MANY_MISSED = 100;
  /** The annotation carrying a Job's scheduled time, RFC 3339 in the CronJob's time zone. */
  public static final String SCHEDULED_TIMESTAMP_ANNOTATION = "batch.kubernetes.io/cronjob-scheduled-timestamp";
  /** Event reason: more than {@value #TOO_MANY_MISSED} start times were missed (Warning). */
  public static final String TOO_MANY_MISSED_TIMES = "TooManyMissedTimes";
  /** The note of the {@value #TOO_MANY_MISSED_TIMES} event. */
  public static final String TOO_MANY_MISSED_NOTE =
      "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew";

  private CronJobSchedules() {}

  /** Upstream's {@code missedSchedulesType}. */
  public enum Missed { NONE, FEW, MANY }

  /**
   * What {@link #mostRecentScheduleTime} found.
   *
   * @param earliest the last schedule time, else the creation time, moved up to {@code now - startingDeadlineSeconds}
   *     when asked
   * @param mostRecent the most recent time a Job should have been created, not after now, or {@code null}
   * @param error set when the schedule has no two activations at least a second apart (e.g. {@code 59 23 31 2 *})
   */
  public record MostRecent(Instant earliest, @Nullable Instant mostRecent, Missed missed, @Nullable String error) {}

  /**
   * Upstream's {@code mostRecentScheduleTime}. The counting of missed schedules is upstream's approximation: the gap
   * between the next two activations after {@code earliest}, fitted between the first and {@code now}.
   */
  public static MostRecent mostRecentScheduleTime(CronJob cj, Instant now, CronSchedule schedule,
      boolean includeStartingDeadlineSeconds) {
    Instant earliest = earliestTime(cj, now);
    Long sds = cj.spec().startingDeadlineSeconds();
    if (includeStartingDeadlineSeconds && sds != null) {
      Instant deadline = now.minusSeconds(sds);
      if (deadline.isAfter(earliest)) {
        earliest = deadline;
      }
    }
    Instant t1 = schedule.next(earliest);
    Instant t2 = t1 == null ? null : schedule.next(t1);
    if (t1 != null && now.isBefore(t1)) {
      return new MostRecent(earliest, null, Missed.NONE, null);
    }
    if (t1 != null && t2 != null && now.isBefore(t2)) {
      return new MostRecent(earliest, t1, Missed.NONE, null);
    }
    long between = t1 == null || t2 == null ? 0 : roundToSeconds(Duration.between(t1, t2));
    if (between < 1) {
      return new MostRecent(earliest, null, Missed.NONE,
          "time difference between two schedules is less than 1 second");
    }
    long elapsed = Duration.between(t1, now).getSeconds();
    long missedCount = elapsed / between + 1;
    // start one interval before the estimate and let the schedule find the real times (irregular schedules)
    Instant potentialEarliest = t1.plusSeconds((missedCount - 1 - 1) * between);
    Instant mostRecent = null;
    for (Instant t = schedule.next(potentialEarliest); t != null && !t.isAfter(now); t = schedule.next(t)) {
      mostRecent = t;
    }
    Missed missed = missedCount > TOO_MANY_MISSED ? Missed.MANY : missedCount > 0 ? Missed.FEW : Missed.NONE;
    return new MostRecent(earliest, mostRecent, missed, null);
  }

  /**
   * The last schedule time, else the creation time; a CronJob not yet stored (no creation time) counts from
   * {@code now}.
   */
  private static Instant earliestTime(CronJob cj, Instant now) {
    Instant last = cj.status().lastScheduleTime();
    if (last != null) {
      return last;
    }
    Instant created = cj.metadata().creationTimestamp();
    return created != null ? created : now;
  }

  /** Go's {@code Duration.Round(time.Second)} in seconds: halves away from zero. */
  private static long roundToSeconds(Duration d) {
    long nanos = d.toNanos();
    long whole = nanos / 1_000_000_000L;
    long rest = nanos % 1_000_000_000L;
    if (Math.abs(rest) >= 500_000_000L) {
      whole += Long.signum(rest);
    }
    return whole;
  }

  /**
   * Upstream's {@code nextScheduleTimeDuration}: how long until the activation after the most recent one (or after
   * {@code now} when schedules were missed or the schedule is broken), plus {@link #NEXT_SCHEDULE_DELTA};
   * {@code null} when the schedule has no next activation.
   */
  public static @Nullable Duration nextScheduleTimeDuration(CronJob cj, Instant now, CronSchedule schedule) {
    MostRecent r = mostRecentScheduleTime(cj, now, schedule, false);
    Instant from;
    if (r.error() != null) {
      from = now;
    } else if (r.mostRecent() == null) {
      from = r.missed() == Missed.NONE ? r.earliest() : now;
    } else {
      from = r.mostRecent();
    }
    Instant next = schedule.next(from);
    return next == null ? null : Duration.between(now, next.plus(NEXT_SCHEDULE_DELTA));
  }

  /**
   * Upstream's {@code nextScheduleTime}.
   *
   * @param scheduled the most recent unmet schedule time (within {@code startingDeadlineSeconds}), or {@code null}
   * @param error as {@link MostRecent#error()}
   */
  public record Next(@Nullable Instant scheduled, @Nullable String error) {}

  /**
   * Upstream's {@code nextScheduleTime}: the most recent schedule time not after {@code now}; records a
   * {@value #TOO_MANY_MISSED_TIMES} warning when more than {@value #TOO_MANY_MISSED} were missed.
   */
  public static Next nextScheduleTime(CronJob cj, Instant now, CronSchedule schedule, EventRecorder events) {
    MostRecent r = mostRecentScheduleTime(cj, now, schedule, true);
    Instant t = r.mostRecent();
    if (t == null || t.isAfter(now)) {
      return new Next(null, r.error());
    }
    if (r.missed() == Missed.MANY) {
      events.event(cj, Event.WARNING, TOO_MANY_MISSED_TIMES, "Schedule", TOO_MANY_MISSED_NOTE);
    }
    return new Next(t, r.error());
  }

  /** Upstream's {@code getJobName}: {@code <cronjob>-<scheduled time in minutes since the epoch>}. */
  public static String jobName(CronJob cj, Instant scheduled) {
    return cj.metadata().name() + "-" + Math.floorDiv(scheduled.getEpochSecond(), 60);
  }

  /**
   * Upstream's {@code getJobFromTemplate2}: the Job for the run scheduled at {@code scheduled}, named by
   * {@link #jobName}, with the template's labels and annotations, the {@value #SCHEDULED_TIMESTAMP_ANNOTATION}
   * annotation, the CronJob as controller, and the template's Job spec.
   */
  public static Job jobFromTemplate(CronJob cj, Instant scheduled) {
    ObjectMeta template = cj.spec().jobTemplate().metadata();
    Map<String, String> annotations = new HashMap<>(template.annotations());
    annotations.put(SCHEDULED_TIMESTAMP_ANNOTATION, scheduledTimestamp(cj.spec().timeZone(), scheduled));
    ObjectMeta meta = ObjectMeta.builder()
        .namespace(cj.metadata().namespace())
        .name(jobName(cj, scheduled))
        .labels(template.labels())
        .annotations(annotations)
        .creationTimestamp(scheduled)
        .ownerReference(OwnerReference.controllerOf(cj))
        .build();
    JobSpec spec = cj.spec().jobTemplate().spec();
    return new Job(meta, spec, io.fleetkit.api.batch.JobStatus.EMPTY);
  }

  /** {@code scheduled} in RFC 3339 (whole seconds, {@code Z} for a zero offset) in the zone, UTC when unset. */
  static String scheduledTimestamp(@Nullable String timeZone, Instant scheduled) {
    ZoneId zone = timeZone == null ? ZoneOffset.UTC : CronSchedule.zone(timeZone);
    if (zone == null) {
      zone = ZoneOffset.UTC;
    }
    return DateTimeFormatter.ISO_OFFSET_DATE_TIME.format(scheduled.truncatedTo(ChronoUnit.SECONDS).atZone(zone));
  }

  /**
   * Upstream's {@code byJobStartTime}: Jobs with a start time first, earliest first, ties and Jobs without one by
   * name.
   */
  public static final Comparator<Job> BY_START_TIME = (a, b) -> {
    Instant sa = a.status().startTime();
    Instant sb = b.status().startTime();
    if (sa == null && sb != null) {
      return 1;
    }
    if (sa != null && sb == null) {
      return -1;
    }
    if (sa == null || sa.equals(sb)) {
      return a.metadata().name().compareTo(b.metadata().name());
    }
    return sa.compareTo(sb);
  };
}
