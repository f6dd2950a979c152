package io.fleetkit.api.batch;

/** How a CronJob treats a run that comes due while an earlier one is still active (batch/v1 ConcurrencyPolicy). */
public enum ConcurrencyPolicy {
  /** Runs may overlap (the default). */
  Allow,
  /** A run that comes due while another is active is skipped. */
  Forbid,
  /** A run that comes due deletes the active ones and starts. */
  Replace
}
