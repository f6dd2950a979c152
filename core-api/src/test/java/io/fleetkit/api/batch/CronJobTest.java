package io.fleetkit.api.batch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.ValidationException;
import io.fleetkit.api.Violation;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.labels.LabelSelector;
import io.fleetkit.api.resource.ResourceList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * CronJob defaults and validation, with the rules of Kubernetes' {@code pkg/apis/batch/validation/validation.go}
 * ({@code ValidateCronJobCreate}, {@code validateCronJobSpec}, {@code validateScheduleFormat},
 * {@code validateTimeZone}, {@code ValidateJobTemplateSpec}).
 */
final class CronJobTest {
  private static final PodSpec WORK = PodSpec.builder().restartPolicy(RestartPolicy.OnFailure)
      .container("work", "busybox", ResourceList.builder().put("cpu", "1").build()).build();
  private static final JobSpec JOB = Job.builder().name("x").podSpec(WORK).build().spec();

  private static CronJob.Builder valid() {
    return CronJob.builder().name("nightly").schedule("0 3 * * *").jobSpec(JOB);
  }

  @Test
  void builder_nothingSet_kubernetesDefaults() {
    CronJob c = valid().build();
    assertThat(c.apiVersion()).isEqualTo("batch/v1");
    assertThat(c.kind()).isEqualTo("CronJob");
    assertThat(c.namespaced()).isTrue();
    assertThat(c.metadata().namespace()).isEqualTo("default");
    CronJobSpec s = c.spec();
    assertThat(s.concurrencyPolicy()).isEqualTo(ConcurrencyPolicy.Allow);
    assertThat(s.suspend()).isFalse();
    assertThat(s.successfulJobsHistoryLimit()).isEqualTo(3);
    assertThat(s.failedJobsHistoryLimit()).isEqualTo(1);
    assertThat(s.timeZone()).isNull();
    assertThat(s.startingDeadlineSeconds()).isNull();
    assertThat(c.status()).isEqualTo(CronJobStatus.EMPTY);
  }

  @Test
  void builder_noJobSpec_namesTheField() {
    assertThatThrownBy(() -> CronJob.builder().name("a").schedule("@daily").build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("spec.jobTemplate.spec");
  }

  @Test
  void validate_nameLongerThan52_rejected() {
    String name = "a".repeat(53);
    assertThat(fields(() -> valid().name(name).build())).containsExactly(
        "CronJob default/" + name + ": metadata.name \"" + name + "\" must be no more than 52 characters");
    assertThat(valid().name("a".repeat(52)).build().metadata().name()).hasSize(52);
  }

  @Test
  void validate_emptySchedule_required() {
    assertThat(fields(() -> valid().schedule("").build()))
        .containsExactly("CronJob default/nightly: spec.schedule Required value");
  }

  @Test
  void validate_unparseableSchedule_parserMessage() {
    assertThat(fields(() -> valid().schedule("* * * *").build())).containsExactly(
        "CronJob default/nightly: spec.schedule \"* * * *\" expected exactly 5 fields, found 4: * * * *");
  }

  @ParameterizedTest
  @ValueSource(strings = {"TZ=UTC 0 * * * *", "CRON_TZ=Europe/Rome 0 * * * *"})
  void validate_timeZoneInSchedule_rejected(String schedule) {
    assertThat(fields(() -> valid().schedule(schedule).build())).containsExactly("CronJob default/nightly: "
        + "spec.schedule \"" + schedule + "\" cannot use TZ or CRON_TZ in schedule, use timeZone field instead");
  }

  @Test
  void validate_timeZoneInScheduleAndField_rejected() {
    assertThat(fields(() -> valid().schedule("TZ=UTC 0 * * * *").timeZone("Europe/Rome").build())).hasSize(1)
        .allMatch(m -> m.contains("cannot use TZ or CRON_TZ in schedule"));
  }

  @Test
  void validate_timeZones() {
    assertThat(valid().timeZone("America/New_York").build().spec().timeZone()).isEqualTo("America/New_York");
    assertThat(valid().timeZone("UTC").build().spec().timeZone()).isEqualTo("UTC");
    assertThat(valid().timeZone("Etc/GMT+3").build().spec().timeZone()).isEqualTo("Etc/GMT+3");
    assertThat(fields(() -> valid().timeZone("").build()))
        .containsExactly("CronJob default/nightly: spec.timeZone \"\" timeZone must be nil or non-empty string");
    assertThat(fields(() -> valid().timeZone("Local").build())).containsExactly("CronJob default/nightly: "
        + "spec.timeZone \"Local\" timeZone must be an explicit time zone as defined in "
        + "https://www.iana.org/time-zones");
    for (String bad : List.of("Mars/Olympus", "../etc/passwd", "America/-New_York", "+01:00", "Europe/Rome ")) {
      assertThat(fields(() -> valid().timeZone(bad).build())).as(bad)
          .containsExactly("CronJob default/nightly: spec.timeZone \"" + bad + "\" unknown time zone " + bad);
    }
  }

  @Test
  void validate_negativeDeadlineAndLimits_rejected() {
    assertThat(fields(() -> valid().startingDeadlineSeconds(-1L).successfulJobsHistoryLimit(-1)
        .failedJobsHistoryLimit(-2).build())).containsExactly(
            "CronJob default/nightly: spec.startingDeadlineSeconds \"-1\" must be greater than or equal to 0",
            "CronJob default/nightly: spec.successfulJobsHistoryLimit \"-1\" must be greater than or equal to 0",
            "CronJob default/nightly: spec.failedJobsHistoryLimit \"-2\" must be greater than or equal to 0");
    CronJob zero = valid().startingDeadlineSeconds(0L).successfulJobsHistoryLimit(0).failedJobsHistoryLimit(null)
        .build();
    assertThat(zero.spec().successfulJobsHistoryLimit()).isZero();
    assertThat(zero.spec().failedJobsHistoryLimit()).isNull();
  }

  @Test
  void validate_jobTemplate_jobRulesUnderTheTemplatePath() {
    PodSpec always = PodSpec.builder().container("work", "busybox", ResourceList.builder().put("cpu", "1").build())
        .build();
    JobSpec bad = new JobSpec(-1, null, CompletionMode.NonIndexed, 6, null, null, false, null,
        io.fleetkit.api.core.PodTemplateSpec.of(Map.of(), always));
    List<String> errors = fields(() -> valid().jobSpec(bad).build());
    assertThat(errors).contains(
        "CronJob default/nightly: spec.jobTemplate.spec.parallelism \"-1\" must be greater than or equal to 0");
    assertThat(errors).anyMatch(m -> m.startsWith("CronJob default/nightly: spec.jobTemplate.spec.template.spec"
        + ".restartPolicy"));
  }

  @Test
  void validate_jobTemplateSelector_willBeGenerated() {
    LabelSelector sel = LabelSelector.of(Map.of("app", "x"));
    JobSpec withSelector = new JobSpec(1, 1, CompletionMode.NonIndexed, 6, null, null, false, sel,
        io.fleetkit.api.core.PodTemplateSpec.of(Map.of("app", "x"), WORK));
    assertThat(fields(() -> valid().jobSpec(withSelector).build())).hasSize(1)
        .allMatch(m -> m.contains("spec.jobTemplate.spec.selector") && m.endsWith("`selector` will be auto-generated"));
  }

  @Test
  void validate_jobTemplateLabels_checked() {
    assertThat(fields(() -> valid().jobTemplateLabels(Map.of("bad key!", "v")).build()))
        .allMatch(m -> m.contains("spec.jobTemplate.metadata.labels")).isNotEmpty();
  }

  @Test
  void validate_manyViolations_allListed() {
    ValidationException e = catchThrowableOfType(ValidationException.class,
        () -> valid().schedule("61 * * * *").timeZone("Nowhere").startingDeadlineSeconds(-5L).build());
    assertThat(e.violations()).extracting(Violation::field)
        .containsExactly("spec.schedule", "spec.startingDeadlineSeconds", "spec.timeZone");
    assertThat(e.getMessage()).startsWith("3 violations:");
  }

  @Test
  void withers_keepTheRest() {
    CronJob c = valid().build();
    assertThat(c.withSpec(c.spec().withSuspend(true)).spec().suspend()).isTrue();
    assertThat(c.withSpec(c.spec().withSchedule("@hourly")).spec().schedule()).isEqualTo("@hourly");
    CronJobStatus st = CronJobStatus.EMPTY.withLastScheduleTime(java.time.Instant.EPOCH);
    assertThat(c.withStatus(st).status().lastScheduleTime()).isEqualTo(java.time.Instant.EPOCH);
  }

  private static List<String> fields(Runnable build) {
    ValidationException e = catchThrowableOfType(ValidationException.class, build::run);
    assertThat(e).as("expected a ValidationException").isNotNull();
    return e.violations().stream().map(Violation::toString).toList();
  }
}
