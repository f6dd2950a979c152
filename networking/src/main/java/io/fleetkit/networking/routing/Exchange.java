package io.fleetkit.networking.routing;

import java.time.Duration;

/**
 * How a request ends for the client, once the Gateway has applied the matched rule's timeouts and retry policy
 * ({@link RouteResult#exchange}).
 *
 * @param status the status the client gets: the last backend answer's, 504 when a timeout ended the request, 503
 *     when the last try's connection was dropped, or the route's own status when nothing was forwarded
 * @param backendRequests how many requests the backend received (tries, the first included)
 * @param elapsed how long the client waited (tries, timeouts and the waits between tries)
 */
public record Exchange(int status, int backendRequests, Duration elapsed) {
  /** The status a Gateway answers when a backend drops the connection (Envoy's "upstream reset"). */
  public static final int CONNECTION_ERROR_STATUS = 503;
  /** The status a Gateway answers when a timeout ends the request. */
  public static final int TIMEOUT_STATUS = 504;
}
