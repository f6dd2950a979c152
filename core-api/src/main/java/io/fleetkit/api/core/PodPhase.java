package io.fleetkit.api.core;

/** A pod's lifecycle phase. */
public enum PodPhase {
  Pending,
  Running,
  Succeeded,
  Failed,
  Unknown;

  /** Succeeded or Failed: the pod will never run again. */
  public boolean isTerminal() {
    return this == Succeeded || this == Failed;
  }
}
