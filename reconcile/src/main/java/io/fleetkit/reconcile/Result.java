package io.fleetkit.reconcile;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link Reconciler} asks for next. Immutable; obtain from the named factories.
 */
public final class Result {
  /** The kinds of outcome. */
  public enum Action {
    /** In the desired state: forget the key's failures, wait for the next change. */
    DONE,
    /** Not there yet: reconcile again after the rate limiter's (backoff) delay. */
    REQUEUE,
    /** Reconcile again after a fixed delay (the key's failures are forgotten). */
    REQUEUE_AFTER
  }

  private static final Result DONE = new Result(Action.DONE, Duration.ZERO);
  private static final Result REQUEUE = new Result(Action.REQUEUE, Duration.ZERO);

  private final Action action;
  private final Duration delay;

  private Result(Action action, Duration delay) {
    this.action = action;
    this.delay = delay;
  }

  /** Nothing more to do until something changes. */
  public static Result done() {
    return DONE;
  }

  /** Try again after a rate-limited backoff. */
  public static Result requeue() {
    return REQUEUE;
  }

  /**
   * Try again after {@code delay} (e.g. a deadline to check); a zero delay requeues at once.
   *
   * @throws IllegalArgumentException if {@code delay} is negative
   */
  public static Result requeueAfter(Duration delay) {
    Objects.requireNonNull(delay, "delay");
    if (delay.isNegative()) {
      throw new IllegalArgumentException("Result.requeueAfter: delay must not be negative but was " + delay);
    }
    return new Result(Action.REQUEUE_AFTER, delay);
  }

  public Action action() {
    return action;
  }

  /** The delay of {@link Action#REQUEUE_AFTER}, else empty. */
  public Optional<Duration> requeueDelay() {
    return action == Action.REQUEUE_AFTER ? Optional.of(delay) : Optional.empty();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Result r && r.action == action && r.delay.equals(delay);
  }

  @Override
  public int hashCode() {
    return action.hashCode() * 31 + delay.hashCode();
  }

  @Override
  public String toString() {
    return action == Action.REQUEUE_AFTER ? "requeueAfter(" + delay + ")" : action == Action.DONE ? "done()"
        : "requeue()";
  }
}
