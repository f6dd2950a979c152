package io.fleetkit.networking.routing;

import java.time.Duration;
import java.util.Objects;

/**
 * What a backend does with one request sent to it: answers a status after a latency, or drops the connection (a
 * reset or a refused connection) after a latency. {@link RouteResult#exchange} plays a rule's timeouts and retry
 * policy against a sequence of these.
 *
 * @param status the answered HTTP status, or {@link #CONNECTION_ERROR}
 * @param latency how long the backend takes to answer or to drop the connection; not negative
 */
public record BackendAnswer(int status, Duration latency) {
  /** The {@link #status} of a dropped connection. */
  public static final int CONNECTION_ERROR = 0;

  public BackendAnswer {
    Objects.requireNonNull(latency, "latency");
    if (latency.isNegative()) {
      throw new IllegalArgumentException("latency must not be negative: " + latency);
    }
    if (status != CONNECTION_ERROR && (status < 100 || status > 599)) {
      throw new IllegalArgumentException("status must be an HTTP status (100..599) or CONNECTION_ERROR: " + status);
    }
  }

  /** The backend answers {@code status} after {@code latency}. */
  public static BackendAnswer status(int status, Duration latency) {
    return new BackendAnswer(status, latency);
  }

  /** The backend answers {@code status} at once. */
  public static BackendAnswer status(int status) {
    return new BackendAnswer(status, Duration.ZERO);
  }

  /** The backend drops the connection after {@code latency}. */
  public static BackendAnswer connectionError(Duration latency) {
    return new BackendAnswer(CONNECTION_ERROR, latency);
  }

  public boolean isConnectionError() {
    return status == CONNECTION_ERROR;
  }
}
