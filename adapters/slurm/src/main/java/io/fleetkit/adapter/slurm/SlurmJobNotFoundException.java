package io.fleetkit.adapter.slurm;

import java.util.List;

/**
 * Slurm does not know the job id ({@code ESLURM_INVALID_JOB_ID}, 2017). Without slurmdbd a finished job is
 * forgotten {@code MinJobAge} seconds after it ends, so this is also what an old job looks like.
 */
public final class SlurmJobNotFoundException extends SlurmRejectedException {
  public SlurmJobNotFoundException(String request, int httpStatus, List<SlurmError> errors) {
    super(request, httpStatus, errors, "found no such job");
  }
}
