package io.fleetkit.queueing;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An {@link AdmissionCheckController} that approves every check of its controller name a fixed delay after the check
 * became Pending (after the workload's quota was reserved): a stand-in, in simulations, for a real check controller
 * (a ProvisioningRequest that takes minutes to be provisioned, a MultiKueue dispatch, a budget approval). It never
 * retries or rejects. Stateless apart from its clock; thread-safe.
 */
public final class ApprovingCheckController implements AdmissionCheckController {
  private final String controllerName;
  private final Duration approveAfter;
  private final Clock clock;

  /**
   * A controller of {@code controllerName} that approves {@code approveAfter} (zero: at once) after a check became
   * Pending, by {@code clock} (the engine's).
   *
   * @throws IllegalArgumentException if {@code controllerName} is empty or {@code approveAfter} negative
   */
  public ApprovingCheckController(String controllerName, Duration approveAfter, Clock clock) {
    this.controllerName = Objects.requireNonNull(controllerName, "controllerName");
    this.approveAfter = Objects.requireNonNull(approveAfter, "approveAfter");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (controllerName.isEmpty()) {
      throw new IllegalArgumentException("approving check controller: controllerName must not be empty");
    }
    if (approveAfter.isNegative()) {
      throw new IllegalArgumentException("approving check controller " + controllerName + ": approveAfter "
          + approveAfter + " must not be negative");
    }
  }

  @Override
  public String controllerName() {
    return controllerName;
  }

  /** How long a check stays Pending before this controller approves it. */
  public Duration approveAfter() {
    return approveAfter;
  }

  @Override
  public CheckVerdict evaluate(AdmissionCheck check, Workload workload, QuotaReservation reservation,
      AdmissionCheckState current) {
    Instant due = current.lastTransitionTime().plus(approveAfter);
    if (clock.instant().isBefore(due)) {
      return CheckVerdict.pending("to be approved by " + controllerName + " at " + due);
    }
    return CheckVerdict.ready("approved by " + controllerName
        + (approveAfter.isZero() ? "" : " after " + approveAfter.toSeconds() + "s"));
  }

  @Override
  public String toString() {
    return "ApprovingCheckController[" + controllerName + ", approveAfter=" + approveAfter + "]";
  }
}
