package io.fleetkit.adapter.slurm;

import java.util.Objects;

/**
 * One entry of the {@code errors} array of a slurmrestd v0.0.38 response.
 *
 * <p>Slurm 22.05 uses two shapes: submit errors are {@code {error, error_code}}, GET/DELETE errors are
 * {@code {description, error_number, error, source}}, and a few endpoints answer {@code {error, errno}}. All three
 * are read into this record; missing parts are empty strings.
 *
 * @param code the Slurm errno ({@code error_code}, {@code error_number} or {@code errno}), e.g. 2000 for an invalid
 *     partition, 2017 for an unknown job id, -1 for an unspecified error, 0 when absent
 * @param error Slurm's error string, e.g. {@code "Invalid partition name specified"}
 * @param description the longer description, e.g. {@code "Unable to find JobId=99999"}, or empty
 * @param source the Slurm API call that failed, e.g. {@code "slurm_load_job"}, or empty
 */
public record SlurmError(int code, String error, String description, String source) {
  /** Slurm's errno for an invalid job id ({@code ESLURM_INVALID_JOB_ID}). */
  public static final int INVALID_JOB_ID = 2017;
  /** Slurm's errno for an invalid partition name ({@code ESLURM_INVALID_PARTITION_NAME}). */
  public static final int INVALID_PARTITION_NAME = 2000;
  /** {@code SLURM_PROTOCOL_AUTHENTICATION_ERROR}. */
  public static final int PROTOCOL_AUTHENTICATION_ERROR = 1007;

  public SlurmError {
    Objects.requireNonNull(error, "error");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(source, "source");
  }

  /** {@code error}, then {@code description} and {@code source} when present, then the code. */
  public String text() {
    StringBuilder b = new StringBuilder(error.isEmpty() ? "error" : error);
    if (!description.isEmpty() && !description.equals(error)) {
      b.append(": ").append(description);
    }
    if (!source.isEmpty()) {
      b.append(" (").append(source).append(')');
    }
    return b.append(" [").append(code).append(']').toString();
  }
}
