package io.fleetkit.adapter.slurm;

import io.fleetkit.api.FleetKitException;
import org.jspecify.annotations.Nullable;

/**
 * Root of the Slurm adapter's failures. Messages carry Slurm's own error text where there is one, and never the JWT.
 *
 * <p>Subclasses: {@link SlurmRejectedException} (Slurm answered and said no; not retried), with
 * {@link SlurmAuthException} and {@link SlurmJobNotFoundException} below it, and {@link SlurmUnavailableException}
 * (slurmrestd could not be reached, also after retries).
 */
public class SlurmException extends FleetKitException {
  public SlurmException(String message) {
    super(message);
  }

  public SlurmException(String message, @Nullable Throwable cause) {
    super(message, cause);
  }
}
