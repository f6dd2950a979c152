package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Ported from upstream {@code pkg/controller/job/job_controller_test.go} (kubernetes commit
 * de00a3c894f17936b66bbd88ae1471f222826629), {@code TestSyncJobWhenManagedBy}: 3 of its 4 cases. The Job (parallelism
 * and completions 2, backoffLimit 6, no pods) starts with upstream's status (active 1, ready 1, a start time); one
 * sync, then the status is compared: unchanged for a Job an external controller manages, else the controller's (two
 * pods created: active 2, ready 0, terminating 0, the start time kept).
 *
 * <p>Upstream's custom value {@code custom-managed-by} is not a domain-prefixed path, which upstream's test (calling
 * the controller directly) need not care about and FleetKit's Job refuses when built: the case uses
 * {@code example.com/custom-managed-by}. Not ported: "job with custom value of managedBy; feature disabled; the status
 * is updated" (FleetKit has no feature gates; the field is always honoured, as with JobManagedBy GA).
 */
final class JobManagedByTest {

  record Case(String name, @Nullable String managedBy, boolean unchanged) {
    @Override
    public String toString() {
      return name;
    }
  }

  static Stream<Case> cases() {
    return Stream.of(
        new Case("job with custom value of managedBy; feature enabled; the status is unchanged",
            "example.com/custom-managed-by", true),
        new Case("job with well known value of the managedBy; feature enabled; the status is updated",
            JobSpec.JOB_CONTROLLER_NAME, false),
        new Case("job without the managedBy; feature enabled; the status is updated", null, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void syncJobWhenManagedBy_upstreamTable(Case tc) {
    Job j = JobUpstreamCasesTest.newJob(2, 2, 6, CompletionMode.NonIndexed);
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(j.withSpec(j.spec().withManagedBy(tc.managedBy())),
        false)) {
      Instant now = env.clock.now();
      JobStatus base = new JobStatus(1, 0, 0, 1, List.of(), now, null, "", null, null);
      env.status(base);
      Job actual = env.syncOnce();
      if (tc.unchanged()) {
        assertThat(actual.status()).isEqualTo(base);
        assertThat(env.podControl.templates).as("creations").isEmpty();
      } else {
        assertThat(actual.status()).isEqualTo(new JobStatus(2, 0, 0, 0, List.of(), now, null, "", 0, null));
        assertThat(env.podControl.templates).as("creations").hasSize(2);
      }
    }
  }
}
