package io.fleetkit.adapter.slurm;

import org.jspecify.annotations.Nullable;

/**
 * slurmrestd could not be reached, timed out, or reported that it could not reach slurmctld, on every one of
 * {@link #attempts()} attempts. The cause is the last failure.
 */
public final class SlurmUnavailableException extends SlurmException {
  private final int attempts;

  public SlurmUnavailableException(String message, int attempts, @Nullable Throwable cause) {
    super(message, cause);
    this.attempts = attempts;
  }

  /** How many attempts were made before giving up. */
  public int attempts() {
    return attempts;
  }
}
