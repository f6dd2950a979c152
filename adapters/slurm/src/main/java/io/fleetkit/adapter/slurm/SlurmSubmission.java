package io.fleetkit.adapter.slurm;

import java.util.Objects;

/**
 * The answer to a successful {@code POST /job/submit}.
 *
 * @param jobId the new job's id; for an array, the array's master id (its tasks carry it as {@code arrayJobId})
 * @param stepId {@code "BATCH"} for a batch job
 * @param userMessage the job_submit plugin's message to the user, usually empty
 */
public record SlurmSubmission(long jobId, String stepId, String userMessage) {
  public SlurmSubmission {
    Objects.requireNonNull(stepId, "stepId");
    Objects.requireNonNull(userMessage, "userMessage");
    if (jobId <= 0) {
      throw new IllegalArgumentException("slurm submission: jobId " + jobId + " must be positive");
    }
  }
}
