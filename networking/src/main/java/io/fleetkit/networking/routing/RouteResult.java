package io.fleetkit.networking.routing;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a request goes.
 *
 * @param route {@code Ingress/ns/name} or {@code HTTPRoute/ns/name}; {@code null} when nothing matched
 * @param service {@code ns/name} of the chosen backend (for a split, the heaviest one); {@code null} when none
 * @param port the backend port, a number or a port name; {@code null} when none
 * @param backends every backend of the matched rule with its weight (one entry for Ingress)
 * @param status the HTTP status a proxy would answer when it cannot forward: 200 when forwarded, 404 when nothing
 *     matched, 500 when the matched rule has no usable backend
 * @param message what happened, for people
 */
public record RouteResult(@Nullable String route, @Nullable String service, @Nullable Object port,
    List<Backend> backends, int status, String message) {
  /** A backend with its weight. */
  public record Backend(String service, Object port, int weight) {}

  public RouteResult {
    backends = List.copyOf(backends);
    Objects.requireNonNull(message, "message");
  }

  public static RouteResult notFound(String message) {
    return new RouteResult(null, null, null, List.of(), 404, message);
  }

  public boolean matched() {
    return route != null;
  }
}
