package io.fleetkit.api.gateway;

import java.time.Duration;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A rule's retry policy (Gateway API {@code HTTPRouteRetry}, experimental channel): a request to a backend that
 * fails is sent again, up to {@code attempts} more times, waiting at least {@code backoff} between tries. A
 * connection error (reset, refused) or a {@code backendRequest} timeout is always retried, as the API says
 * implementations should; an answer's status only when it is one of {@code codes}. {@link HTTPRoute} checks the
 * API's rules: codes in 400..599 and unique, {@code attempts} at least 1, {@code backoff} a Gateway API Duration.
 *
 * @param codes the statuses to retry; empty for none (then only connection errors and timeouts are retried)
 * @param attempts the most retries after the first request; {@code null} for the implementation's default,
 *     {@link #DEFAULT_ATTEMPTS}
 * @param backoff the least time between a failed try and the next, a Gateway API Duration such as {@code 100ms};
 *     {@code null} for the implementation's default, {@link #DEFAULT_BACKOFF}
 */
public record HTTPRouteRetry(List<Integer> codes, @Nullable Integer attempts, @Nullable String backoff) {
  /**
   * The retries when {@code attempts} is unset: one, Envoy's default {@code num_retries} (the API leaves it to the
   * implementation).
   */
  public static final int DEFAULT_ATTEMPTS = 1;

  /**
   * The wait between tries when {@code backoff} is unset: 25 ms, Envoy's default base interval (the API leaves it to
   * the implementation). FleetKit waits exactly the minimum: no exponential growth, no jitter.
   */
  public static final Duration DEFAULT_BACKOFF = Duration.ofMillis(25);

  public HTTPRouteRetry {
    codes = List.copyOf(codes);
  }

  /** The retries after the first request. */
  public int effectiveAttempts() {
    return attempts == null ? DEFAULT_ATTEMPTS : attempts;
  }

  /** The wait between tries ({@link #DEFAULT_BACKOFF} when unset or malformed). */
  public Duration effectiveBackoff() {
    Duration d = HTTPRouteTimeouts.parse(backoff);
    return d == null ? DEFAULT_BACKOFF : d;
  }

  /** Whether an answer with {@code status} is retried. */
  public boolean retries(int status) {
    return codes.contains(status);
  }
}
