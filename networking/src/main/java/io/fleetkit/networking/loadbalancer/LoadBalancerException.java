package io.fleetkit.networking.loadbalancer;

import io.fleetkit.api.FleetKitException;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * A load balancer operation that failed on the provider's side. With a {@linkplain #retryAfter() delay} it is
 * upstream's {@code api.RetryError} (the operation is in progress; the controller tries again after the delay, with no
 * backoff); without one, the controller retries with backoff.
 */
public final class LoadBalancerException extends FleetKitException {
  private final @Nullable Duration retryAfter;

  public LoadBalancerException(String message) {
    this(message, null);
  }

  /**
   * @param retryAfter when to try again; {@code null}: with the controller's backoff
   * @throws IllegalArgumentException if {@code retryAfter} is not positive
   */
  public LoadBalancerException(String message, @Nullable Duration retryAfter) {
    super(Objects.requireNonNull(message, "message"));
    if (retryAfter != null && (retryAfter.isNegative() || retryAfter.isZero())) {
      throw new IllegalArgumentException("load balancer retry delay " + retryAfter + " must be positive");
    }
    this.retryAfter = retryAfter;
  }

  /** The delay a provider asked for before the next try, if it asked for one. */
  public Optional<Duration> retryAfter() {
    return Optional.ofNullable(retryAfter);
  }
}
