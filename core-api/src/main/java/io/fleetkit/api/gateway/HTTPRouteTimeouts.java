package io.fleetkit.api.gateway;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * A rule's timeouts, as Gateway API Duration strings ({@code 1h}, {@code 500ms}, {@code 1m30s}: one to four
 * {@code <1..5 digits><h|m|s|ms>} parts); {@code 0s} disables one. {@link HTTPRoute} checks the format and the
 * API's rule {@code backendRequest timeout cannot be longer than request timeout}.
 *
 * @param request how long the Gateway waits for the whole answer; {@code null} for the implementation's default
 *     (none here)
 * @param backendRequest how long it waits for one request to a backend; {@code null} for the default (none here)
 */
public record HTTPRouteTimeouts(@Nullable String request, @Nullable String backendRequest) {
  /** The API's {@code Duration} pattern. */
  public static final Pattern DURATION = Pattern.compile("^([0-9]{1,5}(h|m|s|ms)){1,4}$");
  private static final Pattern PART = Pattern.compile("([0-9]{1,5})(h|ms|m|s)");

  /** The request timeout; {@code null} when unset or {@code 0s} (disabled) or malformed. */
  public @Nullable Duration requestTimeout() {
    return effective(request);
  }

  /** The backend request timeout; {@code null} when unset or {@code 0s} (disabled) or malformed. */
  public @Nullable Duration backendRequestTimeout() {
    return effective(backendRequest);
  }

  private static @Nullable Duration effective(@Nullable String s) {
    Duration d = parse(s);
    return d == null || d.isZero() ? null : d;
  }

  /** {@code s} as a Duration, or {@code null} when {@code s} is null or does not match {@link #DURATION}. */
  public static @Nullable Duration parse(@Nullable String s) {
    if (s == null || !DURATION.matcher(s).matches()) {
      return null;
    }
    Duration d = Duration.ZERO;
    Matcher m = PART.matcher(s);
    while (m.find()) {
      long n = Long.parseLong(m.group(1));
      d = d.plus(switch (m.group(2)) {
        case "h" -> Duration.ofHours(n);
        case "m" -> Duration.ofMinutes(n);
        case "s" -> Duration.ofSeconds(n);
        default -> Duration.ofMillis(n);
      });
    }
    return d;
  }
}
