package io.fleetkit.api.scheduling;

/** {@code whenUnsatisfiable} of a topology spread constraint. */
public enum UnsatisfiableConstraintAction {
  DoNotSchedule,
  ScheduleAnyway
}
