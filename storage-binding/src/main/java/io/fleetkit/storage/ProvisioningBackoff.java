package io.fleetkit.storage;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * The exponential backoff of failed provisionings, per claim key: {@code initial * 2^(failures-1)}, at most
 * {@code max}; cleared when the claim is bound. Thread-safe.
 */
final class ProvisioningBackoff {
  /** How often provisioning for a claim failed in a row, and when it may next be tried. */
  record Attempt(int failures, Instant next) {}

  private final Duration initial;
  private final Duration max;
  private final Map<String, Attempt> byClaim = new ConcurrentHashMap<>();

  ProvisioningBackoff(Duration initial, Duration max) {
    this.initial = initial;
    this.max = max;
  }

  /** The last failure of the claim {@code namespace/name}, or {@code null} if none since it was last bound. */
  @Nullable Attempt get(String claimKey) {
    return byClaim.get(claimKey);
  }

  Optional<Instant> nextAttempt(String claimKey) {
    Attempt a = byClaim.get(claimKey);
    return a == null ? Optional.empty() : Optional.of(a.next());
  }

  /** Records a failure at {@code now} after {@code previous} (as read before the attempt); returns the new state. */
  Attempt failed(String claimKey, @Nullable Attempt previous, Instant now) {
    int failures = previous == null ? 1 : previous.failures() + 1;
    Duration delay = initial.multipliedBy(1L << Math.min(failures - 1, 30));
    if (delay.compareTo(max) > 0 || delay.isNegative()) {
      delay = max;
    }
    Attempt a = new Attempt(failures, now.plus(delay));
    byClaim.put(claimKey, a);
    return a;
  }

  void clear(String claimKey) {
    byClaim.remove(claimKey);
  }
}
