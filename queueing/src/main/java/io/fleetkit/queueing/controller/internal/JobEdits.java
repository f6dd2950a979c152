package io.fleetkit.queueing.controller.internal;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.PodTemplateSpec;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.meta.ObjectMeta;
import io.fleetkit.queueing.controller.QueueLabels;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** Pure edits of a Job: start it with an admission, stop it, and set its {@code QuotaReserved} condition. */
final class JobEdits {
  private JobEdits() {}

  /** Whether the Job runs with exactly this admission: annotated with it, not suspended, flavor labels selected. */
  static boolean isStarted(Job job, AdmissionRecord admission, Map<String, String> flavorLabels) {
    if (job.spec().suspend() || !admission.format().equals(annotation(job))) {
      return false;
    }
    Map<String, String> selector = job.spec().template().spec().nodeSelector();
    for (Map.Entry<String, String> e : flavorLabels.entrySet()) {
      if (!selector.containsKey(e.getKey())) {
        return false;
      }
    }
    return true;
  }

  /** The Job's admission annotation, or {@code null}. */
  static @Nullable String annotation(Job job) {
    return job.metadata().annotations().get(QueueLabels.ADMISSION);
  }

  /**
   * The Job started with {@code admission}: annotated, the flavor labels the template's nodeSelector lacks added
   * (a key the user already set is kept as it is), {@code suspend=false}.
   */
  static Job started(Job job, AdmissionRecord admission, Instant admittedAt, Map<String, String> flavorLabels) {
    Job clean = stripped(job);
    Map<String, String> selector = new LinkedHashMap<>(clean.spec().template().spec().nodeSelector());
    TreeSet<String> injected = new TreeSet<>();
    for (Map.Entry<String, String> e : flavorLabels.entrySet()) {
      if (selector.putIfAbsent(e.getKey(), e.getValue()) == null) {
        injected.add(e.getKey());
      }
    }
    ObjectMeta.Builder meta = clean.metadata().toBuilder()
        .annotation(QueueLabels.ADMISSION, admission.format())
        .annotation(QueueLabels.ADMITTED_AT, admittedAt.toString());
    if (!injected.isEmpty()) {
      meta.annotation(QueueLabels.INJECTED_NODE_SELECTOR, String.join(",", injected));
    }
    return withTemplateSelector(clean.withMetadata(meta.build()), selector, false);
  }

  /** The Job suspended, without the controller's annotations and injected nodeSelector keys. */
  static Job stopped(Job job) {
    Job clean = stripped(job);
    return clean.spec().suspend() ? clean : clean.withSpec(clean.spec().withSuspend(true));
  }

  /** The Job without the controller's annotations and injected nodeSelector keys (suspend unchanged). */
  private static Job stripped(Job job) {
    Map<String, String> ann = job.metadata().annotations();
    if (!ann.containsKey(QueueLabels.ADMISSION) && !ann.containsKey(QueueLabels.ADMITTED_AT)
        && !ann.containsKey(QueueLabels.INJECTED_NODE_SELECTOR)) {
      return job;
    }
    Map<String, String> selector = new LinkedHashMap<>(job.spec().template().spec().nodeSelector());
    String injected = ann.get(QueueLabels.INJECTED_NODE_SELECTOR);
    if (injected != null && !injected.isEmpty()) {
      Arrays.asList(injected.split(",")).forEach(selector::remove);
    }
    Map<String, String> kept = new LinkedHashMap<>(ann);
    kept.remove(QueueLabels.ADMISSION);
    kept.remove(QueueLabels.ADMITTED_AT);
    kept.remove(QueueLabels.INJECTED_NODE_SELECTOR);
    Job j = job.withMetadata(job.metadata().toBuilder().annotations(kept).build());
    return withTemplateSelector(j, selector, j.spec().suspend());
  }

  private static Job withTemplateSelector(Job job, Map<String, String> selector, boolean suspend) {
    JobSpec s = job.spec();
    PodSpec pod = s.template().spec();
    PodTemplateSpec template = pod.nodeSelector().equals(selector) ? s.template()
        : new PodTemplateSpec(s.template().metadata(), pod.toBuilder().nodeSelector(selector).build());
    return job.withSpec(new JobSpec(s.parallelism(), s.completions(), s.completionMode(), s.backoffLimit(),
        s.activeDeadlineSeconds(), s.ttlSecondsAfterFinished(), suspend, s.selector(), template));
  }

  /**
   * The status with condition {@value QueueLabels#QUOTA_RESERVED} set, or {@code null} if it already has that
   * status, reason and message.
   */
  static @Nullable JobStatus withQuotaReserved(
      JobStatus status, boolean reserved, String reason, String message, Instant now) {
    ConditionStatus cs = reserved ? ConditionStatus.True : ConditionStatus.False;
    JobCondition old = status.condition(QueueLabels.QUOTA_RESERVED);
    if (old != null && old.status() == cs && old.reason().equals(reason) && old.message().equals(message)) {
      return null;
    }
    Instant transition = old != null && old.status() == cs ? old.lastTransitionTime() : now;
    List<JobCondition> conditions = new ArrayList<>();
    boolean replaced = false;
    JobCondition c = new JobCondition(QueueLabels.QUOTA_RESERVED, cs, reason, message, now, transition);
    for (JobCondition x : status.conditions()) {
      if (x.type().equals(QueueLabels.QUOTA_RESERVED)) {
        conditions.add(c);
        replaced = true;
      } else {
        conditions.add(x);
      }
    }
    if (!replaced) {
      conditions.add(c);
    }
    return new JobStatus(status.active(), status.succeeded(), status.failed(), status.ready(), conditions,
        status.startTime(), status.completionTime(), status.completedIndexes());
  }
}
