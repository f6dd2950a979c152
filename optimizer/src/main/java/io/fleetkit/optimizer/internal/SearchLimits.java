package io.fleetkit.optimizer.internal;

import java.time.Duration;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The search limits the optimizers' builders take, each checked once here: the wall-time limit, the seed and the
 * step limits. Errors name the optimizer. Not thread-safe (a builder's state).
 */
public final class SearchLimits {
  private final String owner;
  private Duration timeLimit;
  private long seed;
  private @Nullable Integer stepLimit;
  private @Nullable Integer unimprovedStepLimit;

  /** @param owner how errors name the optimizer ({@code batch optimizer}) */
  public SearchLimits(String owner, Duration defaultTimeLimit) {
    this.owner = owner;
    this.timeLimit = defaultTimeLimit;
  }

  /** Must be positive. */
  public void timeLimit(Duration v) {
    Objects.requireNonNull(v, "timeLimit");
    if (v.isNegative() || v.isZero()) {
      throw new IllegalArgumentException(owner + ": timeLimit must be positive, got " + v);
    }
    timeLimit = v;
  }

  public void seed(long v) {
    seed = v;
  }

  /** Must not be negative. */
  public void stepLimit(int v) {
    if (v < 0) {
      throw new IllegalArgumentException(owner + ": stepLimit must not be negative, got " + v);
    }
    stepLimit = v;
  }

  /** Must be positive. */
  public void unimprovedStepLimit(int v) {
    if (v < 1) {
      throw new IllegalArgumentException(owner + ": unimprovedStepLimit must be positive, got " + v);
    }
    unimprovedStepLimit = v;
  }

  public Planner.Settings settings() {
    return new Planner.Settings(timeLimit, seed, stepLimit, unimprovedStepLimit);
  }
}
