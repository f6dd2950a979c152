package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.ResourceList;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class JobTest {
  private static final PodSpec WORK = PodSpec.builder().restartPolicy(RestartPolicy.Never)
      .container("work", "busybox", ResourceList.builder().put("cpu", "1").build()).build();

  @Test
  void builder_nothingSet_kubernetesDefaults() {
    Job j = Job.builder().name("pi").podSpec(WORK).build();
    assertThat(j.apiVersion()).isEqualTo("batch/v1");
    assertThat(j.kind()).isEqualTo("Job");
    assertThat(j.namespaced()).isTrue();
    JobSpec s = j.spec();
    assertThat(s.parallelism()).isEqualTo(1);
    assertThat(s.completions()).isEqualTo(1);
    assertThat(s.completionMode()).isEqualTo(CompletionMode.NonIndexed);
    assertThat(s.backoffLimit()).isEqualTo(6);
    assertThat(s.suspend()).isFalse();
    assertThat(s.activeDeadlineSeconds()).isNull();
    assertThat(s.ttlSecondsAfterFinished()).isNull();
    assertThat(s.selector()).isNull();
    assertThat(j.status()).isEqualTo(JobStatus.EMPTY);
  }

  @Test
  void builder_parallelismOnly_completionsStayUnset() {
    Job j = Job.builder().name("queue").parallelism(4).podSpec(WORK).build();
    assertThat(j.spec().parallelism()).isEqualTo(4);
    assertThat(j.spec().completions()).isNull();
  }

  @Test
  void builder_indexed_kept() {
    Job j = Job.builder().name("idx").completionMode(CompletionMode.Indexed).completions(5).parallelism(2)
        .backoffLimit(0).activeDeadlineSeconds(60L).ttlSecondsAfterFinished(0).suspend(true)
        .templateLabels(Map.of("job", "idx")).selector(LabelSelector.of(Map.of("job", "idx"))).podSpec(WORK)
        .build();
    assertThat(j.spec().completions()).isEqualTo(5);
    assertThat(j.spec().suspend()).isTrue();
    assertThat(j.spec().withSuspend(false).suspend()).isFalse();
    assertThat(j.spec().template().labels()).containsEntry("job", "idx");
  }

  @Test
  void withStatusOf_takesOnlyStatus() {
    Job j = Job.builder().name("pi").podSpec(WORK).build();
    JobStatus st = new JobStatus(0, 1, 0, 0, List.of(new JobCondition(JobCondition.COMPLETE, ConditionStatus.True,
        "", "", null, Instant.EPOCH)), Instant.EPOCH, Instant.EPOCH, "");
    Job merged = j.withStatusOf(j.withSpec(j.spec().withParallelism(3)).withStatus(st));
    assertThat(merged.spec()).isEqualTo(j.spec());
    assertThat(merged.status()).isEqualTo(st);
    assertThat(merged.status().isFinished()).isTrue();
    assertThat(j.status().isFinished()).isFalse();
  }

  @Test
  void validate_manyViolations_allReported() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Job.builder().name("bad")
        .parallelism(-1).completions(-2).backoffLimit(-1).activeDeadlineSeconds(-5L).ttlSecondsAfterFinished(-1)
        .podSpec(WORK.toBuilder().restartPolicy(RestartPolicy.Always).build()).build());
    assertThat(e.violations()).extracting(Violation::field).containsExactly(
        "spec.parallelism", "spec.completions", "spec.activeDeadlineSeconds", "spec.backoffLimit",
        "spec.ttlSecondsAfterFinished", "spec.template.spec.restartPolicy");
    assertThat(e.violations().get(5).rule())
        .isEqualTo("Unsupported value: supported values: \"OnFailure\", \"Never\"");
    assertThat(e.violations().get(5).value()).isEqualTo("Always");
    assertThat(e.violations().get(0).object()).isEqualTo("Job default/bad");
  }

  @Test
  void validate_indexedWithoutCompletions_required() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Job.builder().name("idx")
        .completionMode(CompletionMode.Indexed).parallelism(2).podSpec(WORK).build());
    assertThat(e.violations()).extracting(Violation::field, Violation::rule).containsExactly(
        org.assertj.core.groups.Tuple.tuple("spec.completions", "Required value: when completion mode is Indexed"));
  }

  @Test
  void validate_selectorNotMatchingTemplate_rejected() {
    ValidationException e = catchThrowableOfType(ValidationException.class, () -> Job.builder().name("j")
        .selector(LabelSelector.of(Map.of("a", "b"))).podSpec(WORK).build());
    assertThat(e.violations()).extracting(Violation::rule)
        .containsExactly("`selector` does not match template `labels`");
  }
}
