package io.fleetkit.queueing;

import java.time.Instant;
import java.util.Objects;

/**
 * A workload's {@code Admitted} condition (Kueue's Workload condition of that name): true when its quota is reserved
 * and every admission check that applies to it is ready.
 *
 * @param status whether the workload is admitted
 * @param reason Kueue's reason: {@value AdmissionChecks#REASON_ADMITTED}, {@value AdmissionChecks#REASON_NO_RESERVATION}
 *     or {@value AdmissionChecks#REASON_UNSATISFIED_CHECKS}
 * @param message Kueue's message, e.g. {@code The workload has not all checks ready}
 * @param lastTransitionTime when the status last changed
 */
public record AdmittedCondition(boolean status, String reason, String message, Instant lastTransitionTime) {
  public AdmittedCondition {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
  }
}
