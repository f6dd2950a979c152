package io.fleetkit.api.scheduling;

/** The phase of a coscheduling PodGroup, as in scheduler-plugins. */
public enum PodGroupPhase {
  /** Created but not yet all members are there. */
  Pending,
  /** Enough members exist and the scheduler is placing them. */
  Scheduling,
  /** At least {@code minMember} members are bound. */
  Scheduled,
  /** At least {@code minMember} members are running. */
  Running,
  /** At least {@code minMember} members succeeded. */
  Finished,
  /** At least one member failed. */
  Failed,
  Unknown
}
