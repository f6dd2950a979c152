package io.fleetkit.adapter.kubernetes.yaml;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fleetkit.api.batch.ConcurrencyPolicy;
import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.meta.ApiObject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CronJob through the loader: Kubernetes' defaults, the job template, the status, and validation errors. */
final class CronJobYamlTest {

  private static CronJob named(List<ApiObject<?>> objects, String name) {
    return objects.stream().filter(CronJob.class::isInstance).map(CronJob.class::cast)
        .filter(o -> o.metadata().name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void parse_fixture_defaultsTemplateAndStatus() {
    List<ApiObject<?>> objects = RoundTripTest.load("roundtrip/cronjob.yaml");

    CronJob report = named(objects, "nightly-report");
    assertThat(report.spec().schedule()).isEqualTo("30 2 * * *");
    assertThat(report.spec().concurrencyPolicy()).isEqualTo(ConcurrencyPolicy.Allow);
    assertThat(report.spec().suspend()).isFalse();
    assertThat(report.spec().successfulJobsHistoryLimit()).isEqualTo(3);
    assertThat(report.spec().failedJobsHistoryLimit()).isEqualTo(1);
    assertThat(report.spec().timeZone()).isNull();
    assertThat(report.spec().jobTemplate().metadata().annotations()).containsEntry("team", "data");
    assertThat(report.spec().jobTemplate().spec().backoffLimit()).isEqualTo(2);
    assertThat(report.spec().jobTemplate().spec().template().spec().restartPolicy())
        .isEqualTo(RestartPolicy.OnFailure);

    CronJob cleanup = named(objects, "cleanup");
    assertThat(cleanup.metadata().namespace()).isEqualTo("default");
    assertThat(cleanup.spec().timeZone()).isEqualTo("America/New_York");
    assertThat(cleanup.spec().startingDeadlineSeconds()).isEqualTo(120L);
    assertThat(cleanup.spec().concurrencyPolicy()).isEqualTo(ConcurrencyPolicy.Forbid);
    assertThat(cleanup.spec().suspend()).isTrue();
    assertThat(cleanup.spec().successfulJobsHistoryLimit()).isEqualTo(1);
    assertThat(cleanup.spec().failedJobsHistoryLimit()).isZero();
    assertThat(cleanup.status().active()).singleElement().satisfies(r -> {
      assertThat(r.kind()).isEqualTo("Job");
      assertThat(r.name()).isEqualTo("cleanup-29000000");
    });
    assertThat(cleanup.status().lastScheduleTime()).isEqualTo(Instant.parse("2025-03-20T13:20:00Z"));
    assertThat(cleanup.status().lastSuccessfulTime()).isEqualTo(Instant.parse("2025-03-20T12:21:07Z"));
  }

  @Test
  void dump_defaultsLeftOut() {
    String yaml = KubernetesYaml.dump(List.of(named(RoundTripTest.load("roundtrip/cronjob.yaml"),
        "nightly-report")));
    assertThat(yaml).contains("kind: \"CronJob\"").contains("schedule: \"30 2 * * *\"")
        .doesNotContain("successfulJobsHistoryLimit").doesNotContain("concurrencyPolicy")
        .doesNotContain("status");
  }

  @Test
  void parse_badCronJobs_nameFieldAndRule() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: a}
        spec:
          schedule: "0 * * *"
          jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: x, image: y}]}}}}
        ---
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: b}
        spec:
          schedule: "TZ=UTC 0 * * * *"
          timeZone: Mars/Olympus
          concurrencyPolicy: Sometimes
          jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: x, image: y}]}}}}
        ---
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: c}
        spec:
          schedule: "@daily"
          failedJobsHistoryLimit: -1
          jobTemplate: {spec: {template: {spec: {restartPolicy: Always, containers: [{name: x, image: y}]}}}}
        ---
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: d}
        spec: {schedule: "@daily"}
        """, "crons.yaml"));

    assertThat(e.problems()).extracting(p -> p.violation().toString()).anySatisfy(m -> assertThat(m).isEqualTo(
        "CronJob default/a: spec.schedule \"0 * * *\" expected exactly 5 fields, found 4: 0 * * *"))
        .anySatisfy(m -> assertThat(m).startsWith("CronJob default/b: spec.concurrencyPolicy \"Sometimes\""))
        .anySatisfy(m -> assertThat(m).isEqualTo("CronJob default/c: spec.failedJobsHistoryLimit \"-1\" must be "
            + "greater than or equal to 0"))
        .anySatisfy(m -> assertThat(m).startsWith("CronJob default/c: spec.jobTemplate.spec.template.spec"
            + ".restartPolicy"))
        .anySatisfy(m -> assertThat(m).isEqualTo("CronJob default/d: spec.jobTemplate.spec is required"));
  }

  @Test
  void parse_timeZoneInScheduleAndBadZone_bothReported() {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> KubernetesYaml.parse("""
        apiVersion: batch/v1
        kind: CronJob
        metadata: {name: b}
        spec:
          schedule: "TZ=UTC 0 * * * *"
          timeZone: Mars/Olympus
          jobTemplate: {spec: {template: {spec: {restartPolicy: Never, containers: [{name: x, image: y}]}}}}
        """, "tz.yaml"));
    assertThat(e.problems()).extracting(p -> p.violation().toString()).containsExactly(
        "CronJob default/b: spec.schedule \"TZ=UTC 0 * * * *\" cannot use TZ or CRON_TZ in schedule, use timeZone"
            + " field instead",
        "CronJob default/b: spec.timeZone \"Mars/Olympus\" unknown time zone Mars/Olympus");
  }
}
