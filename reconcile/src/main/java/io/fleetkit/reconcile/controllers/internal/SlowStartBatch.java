package io.fleetkit.reconcile.controllers.internal;

import org.jspecify.annotations.Nullable;

/**
 * Upstream's {@code slowStartBatch}: call {@code fn} {@code count} times in batches of 1, 2, 4, ... (starting at
 * {@code initialBatchSize}); every call of a batch is made, and no further batch starts once a batch had a
 * failure. So a failing API (a quota) costs a handful of calls, not {@code count}. Calls run on the caller's thread.
 */
public final class SlowStartBatch {

  /**
   * @param successes how many calls succeeded
   * @param calls how many calls were made
   * @param error the first failure, or {@code null}
   */
  public record Outcome(int successes, int calls, @Nullable RuntimeException error) {}

  private SlowStartBatch() {}

  /** Runs {@code fn} as described; a call fails by throwing. */
  public static Outcome run(int count, int initialBatchSize, Runnable fn) {
    int remaining = count;
    int successes = 0;
    int calls = 0;
    RuntimeException first = null;
    for (int batch = Math.min(remaining, initialBatchSize); batch > 0; batch = Math.min(2 * batch, remaining)) {
      for (int i = 0; i < batch; i++) {
        calls++;
        try {
          fn.run();
          successes++;
        } catch (RuntimeException e) {
          if (first == null) {
            first = e;
          }
        }
      }
      if (first != null) {
        break;
      }
      remaining -= batch;
    }
    return new Outcome(successes, calls, first);
  }
}
