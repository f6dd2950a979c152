package io.fleetkit.api.batch;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.Violations;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A CronJob (batch/v1): creates a Job from {@code spec.jobTemplate} at each time of {@code spec.schedule}. Immutable;
 * the canonical constructor validates as Kubernetes' {@code ValidateCronJobCreate} and throws one {@link
 * ValidationException} listing every violation: the name is a DNS subdomain of at most {@value #MAX_NAME_LENGTH}
 * characters (the controller appends {@code -<minutes since the epoch>} to name each Job, and Job names are limited
 * to 63), the schedule parses ({@link CronSchedule}) and carries no {@code TZ=}/{@code CRON_TZ=} prefix (the
 * {@code timeZone} field says it), the time zone is a known IANA zone, the deadline and history limits are not
 * negative, and the job template is a valid Job whose selector is left to be generated.
 */
public record CronJob(ObjectMeta metadata, CronJobSpec spec, CronJobStatus status) implements ApiObject<CronJob> {
  public static final String API_VERSION = "batch/v1";
  public static final String KIND = "CronJob";
  /** 63 (a Job name) minus the 11 characters of the {@code -<minutes>} suffix the controller appends. */
  public static final int MAX_NAME_LENGTH = 52;
  /** Upstream's {@code validTimeZoneCharacters}, checked on each {@code /}-separated part of a time zone. */
  private static final Pattern TIME_ZONE_PART = Pattern.compile("[A-Za-z.\\-_0-9+]{1,14}");
  private static final String JOB_TEMPLATE = "spec.jobTemplate.";

  public CronJob {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    if (metadata.name().length() > MAX_NAME_LENGTH) {
      v.add("metadata.name", "must be no more than " + MAX_NAME_LENGTH + " characters", metadata.name());
    }
    schedule(spec.schedule(), v);
    v.nonNegative("spec.startingDeadlineSeconds", spec.startingDeadlineSeconds());
    timeZone(spec.timeZone(), v);
    jobTemplate(spec.jobTemplate(), v);
    v.nonNegative("spec.successfulJobsHistoryLimit", spec.successfulJobsHistoryLimit());
    v.nonNegative("spec.failedJobsHistoryLimit", spec.failedJobsHistoryLimit());
    v.throwIfAny();
  }

  /** Upstream's {@code validateScheduleFormat} for a new object (no TZ in the schedule is grandfathered). */
  private static void schedule(String schedule, Violations v) {
    if (schedule.isEmpty()) {
      v.required("spec.schedule");
      return;
    }
    try {
      CronSchedule.parse(schedule);
    } catch (IllegalArgumentException e) {
      v.add("spec.schedule", e.getMessage(), schedule);
    }
    if (schedule.contains("TZ")) {
      v.add("spec.schedule", "cannot use TZ or CRON_TZ in schedule, use timeZone field instead", schedule);
    }
  }

  /** Upstream's {@code validateTimeZone}. */
  private static void timeZone(@Nullable String timeZone, Violations v) {
    if (timeZone == null) {
      return;
    }
    if (timeZone.isEmpty()) {
      v.add("spec.timeZone", "timeZone must be nil or non-empty string", timeZone);
      return;
    }
    for (String part : timeZone.split("/", -1)) {
      if (part.equals(".") || part.equals("..") || part.startsWith("-") || !TIME_ZONE_PART.matcher(part).matches()) {
        v.add("spec.timeZone", "unknown time zone " + timeZone, timeZone);
        return;
      }
    }
    if (timeZone.toLowerCase(Locale.ROOT).equals("local")) {
      v.add("spec.timeZone", "timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones",
          timeZone);
    } else if (CronSchedule.zone(timeZone) == null) {
      v.add("spec.timeZone", "unknown time zone " + timeZone, timeZone);
    }
  }

  /**
   * Upstream's {@code ValidateJobTemplateSpec}: the Job rules under {@code spec.jobTemplate}, and no selector (the
   * Job's is generated).
   */
  private static void jobTemplate(JobTemplateSpec template, Violations v) {
    JobSpec s = template.spec();
    if (s.selector() != null) {
      v.add(JOB_TEMPLATE + "spec.selector", "`selector` will be auto-generated", s.selector());
    }
    JobSpec unselected = s.withSelector(null);
    ObjectMeta probe = ObjectMeta.builder().name("template").namespace("default")
        .labels(template.metadata().labels()).build();
    try {
      new Job(probe, unselected, JobStatus.EMPTY);
    } catch (ValidationException e) {
      for (Violation f : e.violations()) {
        v.add(JOB_TEMPLATE + f.field(), f.rule(), f.value());
      }
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public String apiVersion() {
    return API_VERSION;
  }

  @Override
  public String kind() {
    return KIND;
  }

  @Override
  public boolean namespaced() {
    return true;
  }

  @Override
  public CronJob withMetadata(ObjectMeta newMetadata) {
    return new CronJob(newMetadata, spec, status);
  }

  @Override
  public CronJob withStatusOf(CronJob other) {
    return new CronJob(metadata, spec, other.status);
  }

  public CronJob withSpec(CronJobSpec newSpec) {
    return new CronJob(metadata, newSpec, status);
  }

  public CronJob withStatus(CronJobStatus newStatus) {
    return new CronJob(metadata, spec, newStatus);
  }

  /**
   * Mutable builder with Kubernetes' defaults (namespace {@code default}, concurrencyPolicy Allow, history limits 3
   * successful and 1 failed). The schedule and the job template's spec are required. Not thread-safe.
   */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private String schedule = "";
    private @Nullable String timeZone;
    private @Nullable Long startingDeadlineSeconds;
    private ConcurrencyPolicy concurrencyPolicy = ConcurrencyPolicy.Allow;
    private boolean suspend;
    private ObjectMeta templateMeta = ObjectMeta.builder().build();
    private @Nullable JobSpec jobSpec;
    private @Nullable Integer successfulJobsHistoryLimit = CronJobSpec.DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT;
    private @Nullable Integer failedJobsHistoryLimit = CronJobSpec.DEFAULT_FAILED_JOBS_HISTORY_LIMIT;
    private CronJobStatus status = CronJobStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder uid(String v) { meta.uid(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder creationTimestamp(java.time.@Nullable Instant v) { meta.creationTimestamp(v); return this; }
    public Builder schedule(String v) { schedule = Objects.requireNonNull(v, "schedule"); return this; }
    public Builder timeZone(@Nullable String v) { timeZone = v; return this; }
    public Builder startingDeadlineSeconds(@Nullable Long v) { startingDeadlineSeconds = v; return this; }
    public Builder concurrencyPolicy(ConcurrencyPolicy v) { concurrencyPolicy = v; return this; }
    public Builder suspend(boolean v) { suspend = v; return this; }
    /** The job template's metadata (labels and annotations copied onto each Job). */
    public Builder jobTemplateMetadata(ObjectMeta v) { templateMeta = v; return this; }
    /** Labels copied onto each Job. */
    public Builder jobTemplateLabels(Map<String, String> v) {
      templateMeta = templateMeta.toBuilder().labels(v).build();
      return this;
    }
    /** Annotations copied onto each Job. */
    public Builder jobTemplateAnnotations(Map<String, String> v) {
      templateMeta = templateMeta.toBuilder().annotations(v).build();
      return this;
    }
    public Builder jobSpec(JobSpec v) { jobSpec = v; return this; }
    public Builder jobTemplate(JobTemplateSpec v) { templateMeta = v.metadata(); jobSpec = v.spec(); return this; }
    /** {@code null}: keep every successful Job. */
    public Builder successfulJobsHistoryLimit(@Nullable Integer v) { successfulJobsHistoryLimit = v; return this; }
    /** {@code null}: keep every failed Job. */
    public Builder failedJobsHistoryLimit(@Nullable Integer v) { failedJobsHistoryLimit = v; return this; }
    public Builder status(CronJobStatus v) { status = v; return this; }

    /**
     * @throws IllegalStateException if no job spec was set
     * @throws ValidationException if the CronJob breaks a rule
     */
    public CronJob build() {
      if (jobSpec == null) {
        throw new IllegalStateException("CronJob " + meta.build().key() + ": spec.jobTemplate.spec was not set");
      }
      return new CronJob(meta.build(), new CronJobSpec(schedule, timeZone, startingDeadlineSeconds,
          concurrencyPolicy, suspend, new JobTemplateSpec(templateMeta, jobSpec), successfulJobsHistoryLimit,
          failedJobsHistoryLimit), status);
    }
  }
}
