package io.fleetkit.reconcile.controllers;

import static org.assertj.core.api.Assertions.assertThat;

import io.fleetkit.api.batch.CompletionMode;
import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobSpec;
import io.fleetkit.api.batch.JobStatus;
import org.junit.jupiter.api.Test;

/**
 * {@code spec.managedBy} (upstream's {@code managedByExternalController} in {@code syncJob}, JobManagedBy): a Job
 * another controller manages gets neither pods nor status from FleetKit's Job controller; one that names Kubernetes'
 * own controller, or nothing, is synced. FleetKit's own cases, after upstream's {@code TestSyncJobWhenManagedBy}
 * ("the status is unchanged" for a custom value, "the status is updated" for the well-known one).
 */
final class JobManagedByTest {

  private static Job job(String managedBy) {
    Job j = JobUpstreamCasesTest.newJob(2, 5, 6, CompletionMode.NonIndexed);
    return j.withSpec(j.spec().withManagedBy(managedBy));
  }

  @Test
  void externalController_jobLeftAlone() {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(job("example.com/custom-job-controller"),
        false)) {
      Job actual = env.syncOnce();
      assertThat(env.podControl.templates).as("creations").isEmpty();
      assertThat(env.podNames()).isEmpty();
      assertThat(actual.status()).isEqualTo(JobStatus.EMPTY);
    }
  }

  @Test
  void wellKnownController_jobSynced() {
    try (JobUpstreamCasesTest.Env env = new JobUpstreamCasesTest.Env(job(JobSpec.JOB_CONTROLLER_NAME), false)) {
      Job actual = env.syncOnce();
      assertThat(env.podControl.templates).as("creations").hasSize(2);
      assertThat(actual.status().active()).isEqualTo(2);
      assertThat(actual.status().startTime()).isNotNull();
    }
  }
}
