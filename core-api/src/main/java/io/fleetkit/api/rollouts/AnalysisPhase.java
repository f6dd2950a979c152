package io.fleetkit.api.rollouts;

/** The phase of an analysis run, a metric result or a measurement (Argo Rollouts' {@code AnalysisPhase}). */
public enum AnalysisPhase {
  Pending,
  Running,
  Successful,
  Failed,
  Error,
  Inconclusive;

  /** Whether the phase is final: Successful, Failed, Error or Inconclusive. */
  public boolean completed() {
    return this == Successful || this == Failed || this == Error || this == Inconclusive;
  }
}
