package io.fleetkit.reconcile.controllers.internal;

import io.fleetkit.api.batch.CronJob;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.core.PodSpec;
import io.fleetkit.api.core.RestartPolicy;
import io.fleetkit.api.resource.ResourceList;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * The fixtures of upstream's {@code cronjob_controllerv2_test.go} and {@code utils_test.go}: their times and the
 * {@code cronJob()}/{@code jobSpec()} objects. The pod template's restart policy is Never (upstream's leaves it
 * unset, which FleetKit's Job validation refuses).
 */
final class CronJobFixtures {
  private CronJobFixtures() {}

  static final Instant TOP_OF_THE_HOUR = Instant.parse("2016-05-19T10:00:00Z");
  static final Instant JUST_A_SECOND_BEFORE_THE_HOUR = Instant.parse("2016-05-19T09:59:59Z");
  static final Instant JUST_AFTER_THE_PRIOR_HOUR = Instant.parse("2016-05-19T09:01:00Z");
  static final Instant JUST_BEFORE_THE_PRIOR_HOUR = Instant.parse("2016-05-19T08:59:00Z");
  static final Instant JUST_AFTER_THE_HOUR = Instant.parse("2016-05-19T10:01:00Z");
  static final Instant JUST_BEFORE_THE_HOUR = Instant.parse("2016-05-19T09:59:00Z");
  static final Instant JUST_BEFORE_THE_NEXT_HOUR = Instant.parse("2016-05-19T10:59:00Z");
  static final Instant WEEK_AFTER_THE_HOUR = Instant.parse("2016-05-26T10:00:00Z");

  static Instant deltaTimeAfterTopOfTheHour(Duration d) {
    return TOP_OF_THE_HOUR.plus(d);
  }

  static JobSpec jobSpec() {
    PodSpec pod = PodSpec.builder().restartPolicy(RestartPolicy.Never)
        .container("c", "foo/bar", ResourceList.EMPTY).build();
    return Job.builder().name("x").parallelism(1).completions(1).templateLabels(Map.of("foo", "bar")).podSpec(pod)
        .build().spec();
  }

  /** Upstream's {@code cronJob()}: snazzycats/mycronjob, uid 1a2b3c, created just before the hour, every minute. */
  static CronJob.Builder cronJob() {
    return CronJob.builder().namespace("snazzycats").name("mycronjob").uid("1a2b3c")
        .creationTimestamp(JUST_BEFORE_THE_HOUR).schedule("* * * * ?")
        .jobTemplateLabels(Map.of("a", "b")).jobTemplateAnnotations(Map.of("x", "y")).jobSpec(jobSpec())
        .successfulJobsHistoryLimit(null).failedJobsHistoryLimit(null);
  }
}
