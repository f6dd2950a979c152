package io.fleetkit.adapter.kubernetes.yaml.internal.kinds;

import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobSpecBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.CronJobStatusBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobTemplateSpecBuilder;
import io.fleetkit.adapter.kubernetes.yaml.internal.DocumentContext;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Meta;
import io.fleetkit.adapter.kubernetes.yaml.internal.Fabric8Scheduling;
import io.fleetkit.adapter.kubernetes.yaml.internal.Values;
import io.fleetkit.api.batch.ConcurrencyPolicy;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.CronJobSpec;
import io.fleetkit.api.batch.CronJobStatus;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobTemplateSpec;
import io.fleetkit.api.events.ObjectReference;
import io.fleetkit.api.meta.ObjectMeta;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * batch/v1 CronJob, with Kubernetes' defaults: concurrencyPolicy Allow, not suspended, successfulJobsHistoryLimit 3,
 * failedJobsHistoryLimit 1; the job template's spec as a Job's.
 */
public final class CronJobConverter
    extends AbstractKindConverter<io.fabric8.kubernetes.api.model.batch.v1.CronJob, CronJob> {
  public CronJobConverter() {
    super(CronJob.API_VERSION, CronJob.KIND, true, io.fabric8.kubernetes.api.model.batch.v1.CronJob.class,
        CronJob.class);
  }

  @Override
  public @Nullable CronJob toCore(io.fabric8.kubernetes.api.model.batch.v1.CronJob in, DocumentContext ctx) {
    ObjectMeta meta = Fabric8Meta.toCore(in.getMetadata(), kind(), true, ctx);
    var s = in.getSpec();
    if (s == null) {
      ctx.error("spec", "is required", null);
      return null;
    }
    var policy = Values.enumValue(ConcurrencyPolicy.class, s.getConcurrencyPolicy(), ConcurrencyPolicy.Allow,
        "spec.concurrencyPolicy", ctx);
    var jt = s.getJobTemplate();
    JobTemplateSpec template = null;
    if (jt == null || jt.getSpec() == null) {
      ctx.error("spec.jobTemplate.spec", "is required", null);
    } else {
      var m = jt.getMetadata() == null ? new io.fabric8.kubernetes.api.model.ObjectMeta() : jt.getMetadata();
      ObjectMeta templateMeta = ObjectMeta.builder()
          .labels(Values.stringMap(m.getLabels(), "spec.jobTemplate.metadata.labels", ctx))
          .annotations(Values.stringMap(m.getAnnotations(), "spec.jobTemplate.metadata.annotations", ctx))
          .build();
      JobSpec jobSpec = JobConverter.spec(jt.getSpec(), "spec.jobTemplate.spec", ctx);
      template = jobSpec == null ? null : new JobTemplateSpec(templateMeta, jobSpec);
    }
    JobTemplateSpec ft = template;
    CronJobSpec spec = ft == null || policy == null ? null : ctx.build("spec", () -> new CronJobSpec(
        Values.orEmpty(s.getSchedule()), s.getTimeZone(), s.getStartingDeadlineSeconds(), policy,
        Values.boolOr(s.getSuspend(), false), ft,
        s.getSuccessfulJobsHistoryLimit() != null ? s.getSuccessfulJobsHistoryLimit()
            : CronJobSpec.DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT,
        s.getFailedJobsHistoryLimit() != null ? s.getFailedJobsHistoryLimit()
            : CronJobSpec.DEFAULT_FAILED_JOBS_HISTORY_LIMIT));
    CronJobStatus status = CronJobStatus.EMPTY;
    var st = in.getStatus();
    if (st != null) {
      var active = Fabric8Scheduling.list(st.getActive(), "status.active", ctx, (r, p, cx) -> cx.build(p,
          () -> new ObjectReference(Values.orEmpty(r.getApiVersion()), Values.orEmpty(r.getKind()),
              Values.orEmpty(r.getNamespace()), Values.orEmpty(r.getName()), Values.orEmpty(r.getUid()),
              Values.orEmpty(r.getFieldPath()))));
      var last = Values.instant(st.getLastScheduleTime(), "status.lastScheduleTime", ctx);
      var success = Values.instant(st.getLastSuccessfulTime(), "status.lastSuccessfulTime", ctx);
      status = ctx.build("status", () -> new CronJobStatus(active, last, success));
    }
    CronJobStatus fs = status;
    return spec == null || fs == null ? null : ctx.build("", () -> new CronJob(meta, spec, fs));
  }

  @Override
  public io.fabric8.kubernetes.api.model.batch.v1.CronJob toFabric8(CronJob in) {
    CronJobSpec s = in.spec();
    CronJobStatus st = in.status();
    ObjectMeta tm = s.jobTemplate().metadata();
    return new CronJobBuilder()
        .withApiVersion(apiVersion()).withKind(kind())
        .withMetadata(Fabric8Meta.toFabric8(in.metadata()))
        .withSpec(new CronJobSpecBuilder()
            .withSchedule(s.schedule())
            .withTimeZone(s.timeZone())
            .withStartingDeadlineSeconds(s.startingDeadlineSeconds())
            .withConcurrencyPolicy(s.concurrencyPolicy() == ConcurrencyPolicy.Allow ? null
                : s.concurrencyPolicy().name())
            .withSuspend(s.suspend() ? Boolean.TRUE : null)
            .withSuccessfulJobsHistoryLimit(Objects.equals(s.successfulJobsHistoryLimit(),
                CronJobSpec.DEFAULT_SUCCESSFUL_JOBS_HISTORY_LIMIT) ? null : s.successfulJobsHistoryLimit())
            .withFailedJobsHistoryLimit(Objects.equals(s.failedJobsHistoryLimit(),
                CronJobSpec.DEFAULT_FAILED_JOBS_HISTORY_LIMIT) ? null : s.failedJobsHistoryLimit())
            .withJobTemplate(new JobTemplateSpecBuilder()
                .withMetadata(tm.labels().isEmpty() && tm.annotations().isEmpty() ? null
                    : Fabric8Meta.toFabric8(tm))
                .withSpec(JobConverter.spec(s.jobTemplate().spec()))
                .build())
            .build())
        .withStatus(st.equals(CronJobStatus.EMPTY) ? null : new CronJobStatusBuilder()
            .withActive(Fabric8Scheduling.out(st.active(), r -> new ObjectReferenceBuilder()
                .withApiVersion(Values.emptyToNull(r.apiVersion())).withKind(Values.emptyToNull(r.kind()))
                .withNamespace(Values.emptyToNull(r.namespace())).withName(Values.emptyToNull(r.name()))
                .withUid(Values.emptyToNull(r.uid())).withFieldPath(Values.emptyToNull(r.fieldPath())).build()))
            .withLastScheduleTime(Values.instant(st.lastScheduleTime()))
            .withLastSuccessfulTime(Values.instant(st.lastSuccessfulTime()))
            .build())
        .build();
  }
}
