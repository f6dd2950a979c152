package io.fleetkit.networking.routing;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where a request goes and what is done to it.
 *
 * @param route {@code Ingress/ns/name} or {@code HTTPRoute/ns/name}; {@code null} when nothing matched
 * @param service {@code ns/name} of the chosen backend (for a split, the heaviest one); {@code null} when none
 * @param port the backend port, a number or a port name; {@code null} when none
 * @param backends every backend of the matched rule with its weight (one entry for Ingress)
 * @param status the HTTP status a proxy would answer when it cannot forward: 200 when forwarded, 404 when nothing
 *     matched, 500 when the matched rule has no usable backend, the redirect's status (301, 302, 303, 307, 308)
 *     when a {@code RequestRedirect} filter answers
 * @param message what happened, for people
 * @param forwarded the request the backend receives, after the rule's {@code URLRewrite} and
 *     {@code RequestHeaderModifier} filters; {@code null} when the request is not forwarded
 * @param redirect the redirect answered instead of forwarding; {@code null} when none
 * @param responseHeaders what the rule's {@code ResponseHeaderModifier} filter does to the backend's response
 *     headers ({@link HeaderModifier#NONE} when none)
 */
public record RouteResult(@Nullable String route, @Nullable String service, @Nullable Object port,
    List<Backend> backends, int status, String message, @Nullable HttpRequest forwarded,
    @Nullable Redirect redirect, HeaderModifier responseHeaders) {
  /** A backend with its weight. */
  public record Backend(String service, Object port, int weight) {}

  public RouteResult {
    backends = List.copyOf(backends);
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(responseHeaders, "responseHeaders");
  }

  /** A result without filters: {@code forwarded} is {@code request} when {@code status} is 200. */
  static RouteResult unfiltered(@Nullable String route, @Nullable String service, @Nullable Object port,
      List<Backend> backends, int status, String message, HttpRequest request) {
    return new RouteResult(route, service, port, backends, status, message, status == 200 ? request : null, null,
        HeaderModifier.NONE);
  }

  public static RouteResult notFound(String message) {
    return new RouteResult(null, null, null, List.of(), 404, message, null, null, HeaderModifier.NONE);
  }

  public boolean matched() {
    return route != null;
  }
}
