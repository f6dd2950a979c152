package io.fleetkit.simulator;

import io.fleetkit.api.batch.Job;
import io.fleetkit.api.batch.JobCondition;
import java.util.Objects;

/**
 * A Job's state at the end of a run.
 *
 * @param name {@code namespace/name}
 * @param succeeded pods that succeeded
 * @param failed pods that failed
 * @param status what {@code kubectl get jobs} shows in its STATUS column ({@link #statusOf})
 */
public record JobSummary(String name, int succeeded, int failed, String status) {
  public JobSummary {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(status, "status");
  }

  /** The summary of {@code job} as it is. */
  public static JobSummary of(Job job) {
    return new JobSummary(job.metadata().key(), job.status().succeeded(), job.status().failed(), statusOf(job));
  }

  /**
   * kubectl's Job status (its printer's {@code printJob}): {@code Complete} or {@code Failed} when that condition is
   * True, else {@code Terminating} when the Job is being deleted, else {@code Suspended}, {@code FailureTarget} or
   * {@code SuccessCriteriaMet} when that condition is True, in this order, else {@code Running}.
   */
  public static String statusOf(Job job) {
    if (job.status().isConditionTrue(JobCondition.COMPLETE)) {
      return JobCondition.COMPLETE;
    }
    if (job.status().isConditionTrue(JobCondition.FAILED)) {
      return JobCondition.FAILED;
    }
    if (job.metadata().deletionTimestamp() != null) {
      return "Terminating";
    }
    for (String type : new String[] {JobCondition.SUSPENDED, JobCondition.FAILURE_TARGET,
        JobCondition.SUCCESS_CRITERIA_MET}) {
      if (job.status().isConditionTrue(type)) {
        return type;
      }
    }
    return "Running";
  }
}
