package io.fleetkit.adapter.slurm;

import java.util.List;

/**
 * slurmrestd or slurmctld did not accept the credentials: HTTP 401/403 (no or unusable headers), Slurm's
 * {@code SLURM_PROTOCOL_AUTHENTICATION_ERROR}, or the way slurmrestd 22.05 reports a JWT that slurmctld refused
 * (measured: HTTP 500 whose every error is errno -1 "Unspecified error" or 5005 "Zero Bytes were transmitted or
 * received"). The message never contains the token.
 */
public final class SlurmAuthException extends SlurmRejectedException {
  public SlurmAuthException(String request, int httpStatus, List<SlurmError> errors) {
    super(request, httpStatus, errors, "not authenticated");
  }
}
