package io.fleetkit.api.batch;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The desired part of a CronJob. Kubernetes' defaults (applied by {@link CronJob#builder()} and the YAML reader):
 * concurrencyPolicy Allow, not suspended, successfulJobsHistoryLimit 3, failedJobsHistoryLimit 1.
 *
 * @param schedule a {@link CronSchedule} text, e.g. {@code 0 * * * *} or {@code @hourly}
 * @param timeZone the IANA zone the schedule is read in, e.g. {@code Europe/Rome}; {@code null}: UTC (the controller's
 *     zone; Kubernetes uses the kube-controller-manager's local zone)
 * @param startingDeadlineSeconds how late a run may still start; {@code null}: no limit
 * @param successfulJobsHistoryLimit finished successful Jobs kept; {@code null}: all are kept
 * @param failedJobsHistoryLimit finished failed Jobs kept; {@code null}: all are kept
 */
public record CronJobSpec(String schedule, @Nullable String timeZone, @Nullable Long startingDeadlineSeconds,
    ConcurrencyPolicy concurrencyPolicy, boolean suspend, JobTemplateSpec jobTemplate,
    @Nullable Integer successfulJobsHistoryLimit, @Nullable Integer failedJobsHistoryLimit) {
  /** Kubernetes' default of {@code successfulJobsHistoryLimit}. */
  public static final int DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT = 3;
  /** Kubernetes' default of {@code failedJobsHistoryLimit}. */
  public static final int DEFAULT_FAILED_JOBS_HISTORY_LIMIT = 1;

  public CronJobSpec {
    Objects.requireNonNull(schedule, "schedule");
    Objects.requireNonNull(concurrencyPolicy, "concurrencyPolicy");
    Objects.requireNonNull(jobTemplate, "jobTemplate");
  }

  public CronJobSpec withSuspend(boolean v) {
    return new CronJobSpec(schedule, timeZone, startingDeadlineSeconds, concurrencyPolicy, v, jobTemplate,
        successfulJobsHistoryLimit, failedJobsHistoryLimit);
  }

  public CronJobSpec withSchedule(String v) {
    return new CronJobSpec(v, timeZone, startingDeadlineSeconds, concurrencyPolicy, suspend, jobTemplate,
        successfulJobsHistoryLimit, failedJobsHistoryLimit);
  }
}
