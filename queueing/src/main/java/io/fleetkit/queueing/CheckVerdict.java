package io.fleetkit.queueing;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link AdmissionCheckController} decided about one check of one workload.
 *
 * @param state the new state
 * @param message why, for people
 * @param podSetUpdates with {@link CheckState#READY}: what to add to the pod sets' templates
 * @param requeueAfter with {@link CheckState#RETRY}: how long the evicted workload waits before it is queued again,
 *     whole seconds ({@code null}: at once)
 */
public record CheckVerdict(CheckState state, String message, List<PodSetUpdate> podSetUpdates,
    @Nullable Duration requeueAfter) {
  public CheckVerdict {
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(message, "message");
    podSetUpdates = List.copyOf(Objects.requireNonNull(podSetUpdates, "podSetUpdates"));
    if (requeueAfter != null && requeueAfter.isNegative()) {
      throw new IllegalArgumentException("check verdict: requeueAfter " + requeueAfter + " must not be negative");
    }
  }

  /** Not decided yet: asked again in the next cycle. */
  public static CheckVerdict pending(String message) {
    return new CheckVerdict(CheckState.PENDING, message, List.of(), null);
  }

  /** Passed, with {@code updates} for the pod templates. */
  public static CheckVerdict ready(String message, PodSetUpdate... updates) {
    return new CheckVerdict(CheckState.READY, message, List.of(updates), null);
  }

  /** Cannot pass now: evict, requeue at once. */
  public static CheckVerdict retry(String message) {
    return new CheckVerdict(CheckState.RETRY, message, List.of(), null);
  }

  /** Cannot pass now: evict, requeue after {@code after}. */
  public static CheckVerdict retry(String message, Duration after) {
    return new CheckVerdict(CheckState.RETRY, message, List.of(), Objects.requireNonNull(after, "after"));
  }

  /** Will not pass: deactivate the workload. */
  public static CheckVerdict rejected(String message) {
    return new CheckVerdict(CheckState.REJECTED, message, List.of(), null);
  }
}
