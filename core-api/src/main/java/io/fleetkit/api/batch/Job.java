package io.fleetkit.api.batch;

import io.fleetkit.api.Violations;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.internal.PodSpecChecks;
import io.fleetkit.api.internal.WorkloadChecks;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ApiObject;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A Job (batch/v1): runs pods until {@code completions} succeed, retrying up to {@code backoffLimit} (failures
 * counted as its {@link PodFailurePolicy} says; for Indexed Jobs with {@code backoffLimitPerIndex}, per index), or
 * until its {@link SuccessPolicy} is met. Immutable;
 * the canonical constructor validates and throws one {@link io.fleetkit.api.ValidationException} listing every
 * violation.
 */
public record Job(ObjectMeta metadata, JobSpec spec, JobStatus status) implements ApiObject<Job> {
  public static final String API_VERSION = "batch/v1";
  public static final String KIND = "Job";
  /**
   * Upstream's {@code batch.kubernetes.io/job-tracking}: the finalizer the Job controller puts on the pods it
   * creates or adopts, and removes once it has counted the pod in the Job's status (or the pod is no longer the
   * Job's), so that a finished pod cannot disappear before it is counted.
   */
  public static final String TRACKING_FINALIZER = "batch.kubernetes.io/job-tracking";
  /** Kubernetes' cap on the parallelism of Indexed jobs ({@code maxParallelismForIndexedJob}). */
  public static final int MAX_INDEXED_PARALLELISM = 100_000;

  public Job {
    Objects.requireNonNull(metadata, "metadata");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(status, "status");
    Violations v = Violations.forObject(KIND, metadata);
    v.objectMeta(metadata, true);
    v.nonNegative("spec.parallelism", spec.parallelism());
    v.nonNegative("spec.completions", spec.completions());
    v.nonNegative("spec.activeDeadlineSeconds", spec.activeDeadlineSeconds());
    v.nonNegative("spec.backoffLimit", spec.backoffLimit());
    v.nonNegative("spec.ttlSecondsAfterFinished", spec.ttlSecondsAfterFinished());
    JobPolicyChecks.perIndex(spec, "spec", v);
    LabelSelector selector = spec.selector();
    if (selector != null && !selector.matches(spec.template().metadata().labels())) {
      v.add("spec.template.metadata.labels", "`selector` does not match template `labels`",
          spec.template().metadata().labels());
    }
    WorkloadChecks.template(spec.template(), v);
    PodSpecChecks.restartPolicyIn(spec.template().spec(), "spec.template.spec", v, RestartPolicy.OnFailure,
        RestartPolicy.Never);
    JobPolicyChecks.check(spec, "spec", v);
    String managedBy = spec.managedBy();
    if (managedBy != null) {
      // upstream's validateJobSpec: a domain-prefixed path, at most 63 characters
      v.domainPrefixedPath("spec.managedBy", managedBy);
      if (managedBy.length() > JobSpec.MAX_MANAGED_BY_LENGTH) {
        v.add("spec.managedBy", "Too long: may not be longer than " + JobSpec.MAX_MANAGED_BY_LENGTH, managedBy);
      }
    }
    v.nonNegative("status.active", status.active());
    v.nonNegative("status.succeeded", status.succeeded());
    v.nonNegative("status.failed", status.failed());
    v.nonNegative("status.terminating", status.terminating());
    v.throwIfAny();
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
  public Job withMetadata(ObjectMeta newMetadata) {
    return new Job(newMetadata, spec, status);
  }

  @Override
  public Job withStatusOf(Job other) {
    return new Job(metadata, spec, other.status);
  }

  public Job withSpec(JobSpec newSpec) {
    return new Job(metadata, newSpec, status);
  }

  public Job withStatus(JobStatus newStatus) {
    return new Job(metadata, spec, newStatus);
  }

  /**
   * Mutable builder with Kubernetes' defaults (namespace {@code default}, parallelism 1, completions 1 when neither
   * is set, backoffLimit 6, or Integer.MAX_VALUE with backoffLimitPerIndex). The template's restart policy is not defaulted: a Job needs OnFailure or Never.
   */
  public static final class Builder {
    private ObjectMeta.Builder meta = ObjectMeta.builder().namespace("default");
    private @Nullable Integer parallelism;
    private @Nullable Integer completions;
    private CompletionMode completionMode = CompletionMode.NonIndexed;
    private @Nullable Integer backoffLimit;
    private @Nullable Integer backoffLimitPerIndex;
    private @Nullable Integer maxFailedIndexes;
    private @Nullable SuccessPolicy successPolicy;
    private @Nullable Long activeDeadlineSeconds;
    private @Nullable Integer ttlSecondsAfterFinished;
    private boolean suspend;
    private @Nullable LabelSelector selector;
    private @Nullable PodTemplateSpec template;
    private Map<String, String> templateLabels = Map.of();
    private @Nullable PodSpec podSpec;
    private @Nullable PodFailurePolicy podFailurePolicy;
    private @Nullable PodReplacementPolicy podReplacementPolicy;
    private @Nullable String managedBy;
    private JobStatus status = JobStatus.EMPTY;

    private Builder() {}

    public Builder metadata(ObjectMeta v) { meta = v.toBuilder(); return this; }
    public Builder name(String v) { meta.name(v); return this; }
    public Builder namespace(String v) { meta.namespace(v); return this; }
    public Builder label(String k, String v) { meta.label(k, v); return this; }
    public Builder parallelism(@Nullable Integer v) { parallelism = v; return this; }
    public Builder completions(@Nullable Integer v) { completions = v; return this; }
    public Builder completionMode(CompletionMode v) { completionMode = v; return this; }
    /** Unset: 6, or {@link JobSpec#DEFAULT_BACKOFF_LIMIT_PER_INDEX_JOB} with {@code backoffLimitPerIndex}. */
    public Builder backoffLimit(int v) { backoffLimit = v; return this; }
    public Builder backoffLimitPerIndex(@Nullable Integer v) { backoffLimitPerIndex = v; return this; }
    public Builder maxFailedIndexes(@Nullable Integer v) { maxFailedIndexes = v; return this; }
    public Builder successPolicy(@Nullable SuccessPolicy v) { successPolicy = v; return this; }
    public Builder activeDeadlineSeconds(@Nullable Long v) { activeDeadlineSeconds = v; return this; }
    public Builder ttlSecondsAfterFinished(@Nullable Integer v) { ttlSecondsAfterFinished = v; return this; }
    public Builder suspend(boolean v) { suspend = v; return this; }
    public Builder selector(@Nullable LabelSelector v) { selector = v; return this; }
    public Builder template(PodTemplateSpec v) { template = v; return this; }
    /** Labels of the template built from {@link #podSpec}. */
    public Builder templateLabels(Map<String, String> v) { templateLabels = Map.copyOf(v); return this; }
    public Builder podSpec(PodSpec v) { podSpec = v; return this; }
    public Builder status(JobStatus v) { status = v; return this; }
    public Builder podFailurePolicy(@Nullable PodFailurePolicy v) { podFailurePolicy = v; return this; }
    /** Unset: Kubernetes' default, {@code Failed} with a pod failure policy, else {@code TerminatingOrFailed}. */
    public Builder podReplacementPolicy(@Nullable PodReplacementPolicy v) { podReplacementPolicy = v; return this; }
    /** Unset: FleetKit's Job controller syncs the Job; see {@link JobSpec#managedBy()}. */
    public Builder managedBy(@Nullable String v) { managedBy = v; return this; }

    public Job build() {
      int p = parallelism == null ? 1 : parallelism;
      Integer c = completions;
      if (c == null && parallelism == null) {
        c = 1;
      }
      PodTemplateSpec t = template != null ? template
          : PodTemplateSpec.of(templateLabels, podSpec == null ? PodSpec.builder().build() : podSpec);
      // upstream's SetDefaults_Job: backoffLimit defaults to MaxInt32 when backoffLimitPerIndex is set
      int limit = backoffLimit != null ? backoffLimit : backoffLimitPerIndex != null
          ? JobSpec.DEFAULT_BACKOFF_LIMIT_PER_INDEX_JOB : JobSpec.DEFAULT_BACKOFF_LIMIT;
      return new Job(meta.build(), new JobSpec(p, c, completionMode, limit, activeDeadlineSeconds,
          ttlSecondsAfterFinished, suspend, selector, t, podFailurePolicy, podReplacementPolicy,
          backoffLimitPerIndex, maxFailedIndexes, successPolicy, managedBy), status);
    }
  }
}
