package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPRouteRetry;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPRouteTimeouts;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.IntFunction;
import org.jspecify.annotations.Nullable;

/**
 * Where a request goes and what is done to it.
 *
 * @param route {@code Ingress/ns/name} or {@code HTTPRoute/ns/name}; {@code null} when nothing matched
 * @param service {@code ns/name} of the chosen backend (for a split, the heaviest one; see {@link Backend#result}
 *     for the others); {@code null} when none
 * @param port the backend port, a number or a port name; {@code null} when none
 * @param backends every backend of the matched rule with its weight (one entry for Ingress)
 * @param status the HTTP status a proxy would answer when it cannot forward: 200 when forwarded or when a
 *     {@code CORS} filter answers a preflight, 404 when nothing matched, 500 when the matched rule has no usable
 *     backend, 421 when a request on a TLS connection is misdirected (see
 *     {@link GatewayRouter#route(String, int, String, HttpRequest)}), the redirect's status (301, 302, 303, 307, 308) when a {@code RequestRedirect} filter answers
 * @param message what happened, for people
 * @param forwarded the request the backend receives, after the {@code URLRewrite} and {@code RequestHeaderModifier}
 *     filters of the rule and of the chosen backend; {@code null} when the request is not forwarded
 * @param redirect the redirect answered instead of forwarding; {@code null} when none
 * @param responseHeaders what the {@code ResponseHeaderModifier} filters do to the backend's response headers
 *     ({@link HeaderModifier#NONE} when none)
 * @param mirrors the copies of the forwarded request that {@code RequestMirror} filters send (each for its share of
 *     requests, see {@link Mirror#sends}); empty when none or when not forwarded
 * @param cors the {@code CORS} filter's answer: the preflight answered, or the headers added to the response;
 *     {@code null} when no CORS filter applies or the request has no {@code Origin}
 * @param timeouts the matched rule's timeouts ({@code null} when none); see {@link #exchange}
 * @param retry the matched rule's retry policy ({@code null} when none); see {@link #exchange}
 */
public record RouteResult(@Nullable String route, @Nullable String service, @Nullable Object port,
    List<Backend> backends, int status, String message, @Nullable HttpRequest forwarded,
    @Nullable Redirect redirect, HeaderModifier responseHeaders, List<Mirror> mirrors, @Nullable Cors cors,
    @Nullable HTTPRouteTimeouts timeouts, @Nullable HTTPRouteRetry retry) {
  /**
   * A backend with its weight.
   *
   * @param result what the request gets when it is sent to this backend (its own filters applied after the
   *     rule's), without the list of backends; {@code null} for an Ingress backend or one that cannot take traffic
   */
  public record Backend(String service, Object port, int weight, @Nullable RouteResult result) {
    public Backend(String service, Object port, int weight) {
      this(service, port, weight, null);
    }
  }

  public RouteResult {
    backends = List.copyOf(backends);
    Objects.requireNonNull(message, "message");
    Objects.requireNonNull(responseHeaders, "responseHeaders");
    mirrors = List.copyOf(mirrors);
  }

  /** A result without filters: {@code forwarded} is {@code request} when {@code status} is 200. */
  static RouteResult unfiltered(@Nullable String route, @Nullable String service, @Nullable Object port,
      List<Backend> backends, int status, String message, HttpRequest request) {
    return new RouteResult(route, service, port, backends, status, message, status == 200 ? request : null, null,
        HeaderModifier.NONE, List.of(), null, null, null);
  }

  public static RouteResult notFound(String message) {
    return new RouteResult(null, null, null, List.of(), 404, message, null, null, HeaderModifier.NONE, List.of(),
        null, null, null);
  }

  /** The status of a misdirected request: 421 Misdirected Request. */
  static final int MISDIRECTED = 421;

  /** A request sent on a TLS connection whose server name selected another listener than its Host does (421). */
  static RouteResult misdirected(String message) {
    return new RouteResult(null, null, null, List.of(), MISDIRECTED, message, null, null, HeaderModifier.NONE,
        List.of(), null, null, null);
  }

    /** A matched rule whose backends cannot take the request (500). */
  static RouteResult noBackend(String route, List<Backend> backends, String message) {
    return new RouteResult(route, null, null, backends, 500, message, null, null, HeaderModifier.NONE, List.of(),
        null, null, null);
  }

  /**
   * What the filters' effects {@code a} make of a request of {@code route} for backend {@code service}:{@code port}
   * (both {@code null} when the rule's own filters answer before a backend is chosen).
   */
  static RouteResult applied(String route, @Nullable String service, @Nullable Object port, String why,
      RouteFilters.Applied a, @Nullable HTTPRouteRule rule) {
    Cors cors = a.cors();
    if (cors != null && cors.preflight()) {
      return new RouteResult(route, null, null, List.of(), 200, why + ", CORS preflight answered"
          + (cors.allowed() ? "" : " without CORS headers (origin not allowed)") + " (200)", null, null,
          HeaderModifier.NONE, List.of(), cors, null, null);
    }
    Redirect rd = a.redirect();
    if (rd != null) {
      return new RouteResult(route, null, null, List.of(), rd.statusCode(), why + ", redirected to "
          + rd.location() + " (" + rd.statusCode() + ")", null, rd, a.response(), List.of(), cors, null, null);
    }
    return new RouteResult(route, service, port, List.of(), 200, why, a.forwarded(), null, a.response(),
        a.mirrors(), cors, rule == null ? null : rule.timeouts(), rule == null ? null : rule.retry());
  }

  /** This result with {@code b} as the rule's backends. */
  RouteResult withBackends(List<Backend> b) {
    return new RouteResult(route, service, port, b, status, message, forwarded, redirect, responseHeaders, mirrors,
        cors, timeouts, retry);
  }

  /**
   * The response headers the client gets, names in lower case: the backend's {@code backendHeaders} after the
   * {@code ResponseHeaderModifier} filters, then the CORS headers; for a CORS preflight, only the CORS headers.
   */
  public Map<String, String> response(Map<String, String> backendHeaders) {
    Map<String, String> out = new LinkedHashMap<>();
    if (cors == null || !cors.preflight()) {
      out.putAll(responseHeaders.apply(backendHeaders));
    }
    if (cors != null) {
      out.putAll(cors.headers());
    }
    return Collections.unmodifiableMap(out);
  }

  /**
   * The status the client gets when the backend takes {@code latency} to answer a forwarded request with
   * {@link #status}: 504 when the rule's {@code request} or {@code backendRequest} timeout (unless {@code 0s}) is
   * shorter, else {@link #status}. The same as {@link #exchange} with that answer to every try.
   */
  public int statusWhenBackendTakes(Duration latency) {
    if (forwarded == null) {
      return status;
    }
    BackendAnswer a = BackendAnswer.status(status, latency);
    return exchange(i -> a).status();
  }

  /**
   * How a forwarded request ends when the backend gives {@code answers.apply(i)} to its {@code i}-th try (0 is the
   * first). As the Gateway API says:
   *
   * <ul>
   *   <li>a try longer than the {@code backendRequest} timeout is cut at that timeout and counts as a timeout (504);
   *   <li>with a retry policy, a try is repeated, up to {@link HTTPRouteRetry#effectiveAttempts} times, when it
   *       timed out, when the connection was dropped, or when its status is one of the policy's codes, after
   *       waiting {@link HTTPRouteRetry#effectiveBackoff}; the last try's outcome is the client's (503 for a dropped
   *       connection);
   *   <li>the {@code request} timeout bounds the whole: first try, waits and retries. When it passes, the client
   *       gets 504 at that instant, whatever is in progress.
   * </ul>
   * An answer that comes exactly at a timeout is in time. A request that is not forwarded ({@link #forwarded} null:
   * not found, redirected, a CORS preflight, no backend) ends with {@link #status} and no backend request.
   */
  public Exchange exchange(IntFunction<BackendAnswer> answers) {
    if (forwarded == null) {
      return new Exchange(status, 0, Duration.ZERO);
    }
    Duration request = timeouts == null ? null : timeouts.requestTimeout();
    Duration perTry = timeouts == null ? null : timeouts.backendRequestTimeout();
    HTTPRouteRetry policy = retry;
    int tries = 1 + (policy == null ? 0 : policy.effectiveAttempts());
    Duration backoff = policy == null ? Duration.ZERO : policy.effectiveBackoff();
    Duration elapsed = Duration.ZERO;
    for (int i = 0; ; i++) {
      if (i > 0) {
        elapsed = elapsed.plus(backoff);
        if (request != null && elapsed.compareTo(request) > 0) {
          return new Exchange(Exchange.TIMEOUT_STATUS, i, request);
        }
      }
      BackendAnswer a = Objects.requireNonNull(answers.apply(i), "answer to try " + i);
      boolean timedOut = perTry != null && a.latency().compareTo(perTry) > 0;
      Duration end = elapsed.plus(timedOut ? perTry : a.latency());
      if (request != null && end.compareTo(request) > 0) {
        return new Exchange(Exchange.TIMEOUT_STATUS, i + 1, request);
      }
      elapsed = end;
      int got = timedOut ? Exchange.TIMEOUT_STATUS
          : a.isConnectionError() ? Exchange.CONNECTION_ERROR_STATUS : a.status();
      boolean retried = policy != null && (timedOut || a.isConnectionError() || policy.retries(a.status()));
      if (!retried || i + 1 == tries) {
        return new Exchange(got, i + 1, elapsed);
      }
    }
  }

  public boolean matched() {
    return route != null;
  }
}
