package io.fleetkit.queueing;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A workload's {@code status.requeueState} (Kueue): how many times {@code waitForPodsReady} evicted it and when it
 * may be queued again.
 *
 * @param count the evictions by the PodsReady timeout so far (0 if none)
 * @param requeueAt when the workload is queued again, or {@code null} once it has been (or without a delay)
 */
public record RequeueState(int count, @Nullable Instant requeueAt) {
  public RequeueState {
    if (count < 0) {
      throw new IllegalArgumentException("requeueState.count " + count + " must not be negative");
    }
  }

  /**
   * Kueue's {@code SetRequeueState}: the state with {@code requeueAt} moved to {@code waitUntil} if that is later
   * (the requeue state is shared by several components, so a later requeue is never moved earlier) and, with {@code
   * incrementCount}, the count one higher.
   *
   * @param current the state so far, or {@code null} for none
   */
  public static RequeueState set(@Nullable RequeueState current, Instant waitUntil, boolean incrementCount) {
    java.util.Objects.requireNonNull(waitUntil, "waitUntil");
    int count = current == null ? 0 : current.count;
    Instant at = current == null ? null : current.requeueAt;
    if (at == null || at.isBefore(waitUntil)) {
      at = waitUntil;
    }
    return new RequeueState(incrementCount ? count + 1 : count, at);
  }
}
