package io.fleetkit.queueing;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A workload's {@code PodsReady} condition (Kueue's Workload condition of that name), which the job integration sets
 * from whether all of the admitted workload's pods are ready (or succeeded).
 *
 * @param status whether all pods are ready
 * @param reason Kueue's reason: {@value #REASON_STARTED} or {@value #REASON_RECOVERED} when true, {@value
 *     #REASON_WAIT_FOR_START} or {@value #REASON_WAIT_FOR_RECOVERY} when false
 * @param message Kueue's message, e.g. {@value #MESSAGE_NOT_READY}
 * @param lastTransitionTime when the status last changed
 */
public record PodsReadyCondition(boolean status, String reason, String message, Instant lastTransitionTime) {
  /** All pods became ready for the first time. */
  public static final String REASON_STARTED = "Started";
  /** All pods are ready again after one failed. */
  public static final String REASON_RECOVERED = "Recovered";
  /** Not all pods are ready yet (the timeout counts from the admission). */
  public static final String REASON_WAIT_FOR_START = "WaitForStart";
  /** A pod failed after all were ready (the recovery timeout counts from this condition's transition). */
  public static final String REASON_WAIT_FOR_RECOVERY = "WaitForRecovery";
  /** The reason older Kueue versions gave a false condition; read as {@value #REASON_WAIT_FOR_START}. */
  public static final String REASON_LEGACY_PODS_READY = "PodsReady";
  public static final String MESSAGE_NOT_READY = "Not all pods are ready or succeeded";
  public static final String MESSAGE_WAITING_FOR_RECOVERY = "At least one pod has failed, waiting for recovery";
  public static final String MESSAGE_READY = "All pods reached readiness and the workload is running";

  public PodsReadyCondition {
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
  }

  /**
   * Kueue's {@code generatePodsReadyCondition} (the job reconciler): the condition a workload gets from its current
   * one and whether its pods are all ready. A workload that is not admitted waits for start; ready pods give {@value
   * #REASON_STARTED}, or {@value #REASON_RECOVERED} after a recovery wait; pods no longer ready after a true condition
   * (or still not ready while waiting for recovery) give {@value #REASON_WAIT_FOR_RECOVERY}; else {@value
   * #REASON_WAIT_FOR_START}. The transition time moves only when the status changes (Kueue's {@code
   * SetStatusCondition}).
   */
  public static PodsReadyCondition next(@Nullable PodsReadyCondition current, boolean admitted, boolean podsReady,
      Instant now) {
    PodsReadyCondition next;
    if (!admitted) {
      next = falseOf(REASON_WAIT_FOR_START, MESSAGE_NOT_READY, now);
    } else if (podsReady) {
      String reason = current != null && (current.reason.equals(REASON_WAIT_FOR_RECOVERY)
          || current.reason.equals(REASON_RECOVERED)) ? REASON_RECOVERED : REASON_STARTED;
      next = new PodsReadyCondition(true, reason, MESSAGE_READY, now);
    } else if (current != null && (current.status || current.reason.equals(REASON_WAIT_FOR_RECOVERY))) {
      next = falseOf(REASON_WAIT_FOR_RECOVERY, MESSAGE_WAITING_FOR_RECOVERY, now);
    } else {
      next = falseOf(REASON_WAIT_FOR_START, MESSAGE_NOT_READY, now);
    }
    if (current != null && current.status == next.status) {
      return new PodsReadyCondition(next.status, next.reason, next.message, current.lastTransitionTime);
    }
    return next;
  }

  private static PodsReadyCondition falseOf(String reason, String message, Instant now) {
    return new PodsReadyCondition(false, reason, message, now);
  }
}
