package io.fleetkit.queueing;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The state of one admission check of one workload (Kueue {@code AdmissionCheckState}, an entry of the Workload's
 * {@code status.admissionChecks}).
 *
 * @param name the {@link AdmissionCheck}'s name
 * @param state the state
 * @param lastTransitionTime when the state last changed
 * @param message why, for people (may be empty)
 * @param requeueAfterSeconds with {@link CheckState#RETRY}: how long after {@code lastTransitionTime} the evicted
 *     workload waits before it is queued again; {@code null}: at once
 * @param retryCount how many times the check went {@link CheckState#RETRY} and the workload was evicted, or {@code
 *     null} for never (counted by the engine)
 * @param podSetUpdates what the check adds to the pod sets' templates when it is {@link CheckState#READY}
 */
public record AdmissionCheckState(String name, CheckState state, Instant lastTransitionTime, String message,
    @Nullable Integer requeueAfterSeconds, @Nullable Integer retryCount, List<PodSetUpdate> podSetUpdates) {
  public AdmissionCheckState {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(lastTransitionTime, "lastTransitionTime");
    Objects.requireNonNull(message, "message");
    podSetUpdates = List.copyOf(Objects.requireNonNull(podSetUpdates, "podSetUpdates"));
    if (requeueAfterSeconds != null && requeueAfterSeconds < 0) {
      throw new IllegalArgumentException("admission check state " + name + ": requeueAfterSeconds "
          + requeueAfterSeconds + " must be greater than or equal to 0");
    }
    if (retryCount != null && retryCount < 0) {
      throw new IllegalArgumentException("admission check state " + name + ": retryCount " + retryCount
          + " must be greater than or equal to 0");
    }
  }

  /** Check {@code name} in {@code state} with {@code message}, changed at the epoch, nothing else set. */
  public static AdmissionCheckState of(String name, CheckState state, String message) {
    return new AdmissionCheckState(name, state, Instant.EPOCH, message, null, null, List.of());
  }

  /** Check {@code name}, {@link CheckState#PENDING} since {@code at}. */
  public static AdmissionCheckState pending(String name, Instant at) {
    return new AdmissionCheckState(name, CheckState.PENDING, at, "", null, null, List.of());
  }

  public AdmissionCheckState withState(CheckState state) {
    return new AdmissionCheckState(name, state, lastTransitionTime, message, requeueAfterSeconds, retryCount,
        podSetUpdates);
  }

  public AdmissionCheckState withMessage(String message) {
    return new AdmissionCheckState(name, state, lastTransitionTime, message, requeueAfterSeconds, retryCount,
        podSetUpdates);
  }

  public AdmissionCheckState withLastTransitionTime(Instant at) {
    return new AdmissionCheckState(name, state, at, message, requeueAfterSeconds, retryCount, podSetUpdates);
  }

  public AdmissionCheckState withRequeueAfterSeconds(@Nullable Integer seconds) {
    return new AdmissionCheckState(name, state, lastTransitionTime, message, seconds, retryCount, podSetUpdates);
  }

  public AdmissionCheckState withRetryCount(@Nullable Integer count) {
    return new AdmissionCheckState(name, state, lastTransitionTime, message, requeueAfterSeconds, count,
        podSetUpdates);
  }

  public AdmissionCheckState withPodSetUpdates(List<PodSetUpdate> updates) {
    return new AdmissionCheckState(name, state, lastTransitionTime, message, requeueAfterSeconds, retryCount,
        updates);
  }
}
