package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPHeaderMatch;
import io.fleetkit.api.gateway.HTTPPathMatch;
import io.fleetkit.api.gateway.HTTPQueryParamMatch;
import io.fleetkit.api.gateway.HTTPRoute;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.PathMatchType;
import io.fleetkit.api.gateway.ValueMatchType;
import io.fleetkit.api.text.GoIntegers;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Routes requests through HTTPRoutes with the Gateway API's matching and precedence: route hostnames match exactly
 * or by a {@code *.} suffix (any number of labels; no hostnames = every host; the request's port is ignored); the
 * matches of a rule are alternatives, the conditions of one match all hold; among all matching rules of all routes
 * the winner has the most specific hostname (most characters of a non-wildcard match, then of any match), then an
 * {@code Exact} path, then the longest {@code PathPrefix}, then a method match, then the most header matches, then
 * the most query-parameter matches, then the oldest route, then the route first by {@code namespace/name}, then
 * the first rule and match. Only the first entry of a repeated header or query-parameter name counts. No match is
 * 404; a matched rule with a {@code RequestRedirect} filter answers the redirect (scheme {@code http}, the request
 * host's port), one with a {@code CORS} filter answers preflights; else a matched rule without a backend of weight
 * above 0 is 500. The other filters of the rule, then those of the chosen backend, say what the backend receives
 * ({@link RouteResult#forwarded}), what is done to its response ({@link RouteResult#responseHeaders},
 * {@link RouteResult#cors}) and where copies go ({@link RouteResult#mirrors}); each backend's own outcome is in
 * {@link RouteResult.Backend#result}.
 */
public final class HttpRouteRouter {
  private final List<HTTPRoute> routes;

  public HttpRouteRouter(List<HTTPRoute> routes) {
    this.routes = List.copyOf(routes);
  }

  /** The winning match: the route, its rule and match indexes. */
  record Candidate(HTTPRoute route, int routeIndex, HTTPRouteRule rule, int ruleIndex, int matchIndex,
      HTTPRouteMatch match, int exactHostLen, int hostLen) {}

  /** The rule that answers {@code request}, or {@code null} (404). */
  @Nullable Candidate find(HttpRequest request) {
    Candidate best = null;
    String host = request.hostname();
    for (int ri = 0; ri < routes.size(); ri++) {
      HTTPRoute r = routes.get(ri);
      int[] hostScore = hostScore(r.spec().hostnames(), host);
      if (hostScore == null) {
        continue;
      }
      List<HTTPRouteRule> rules = r.spec().rules();
      for (int i = 0; i < rules.size(); i++) {
        List<HTTPRouteMatch> ms = rules.get(i).effectiveMatches();
        for (int j = 0; j < ms.size(); j++) {
          if (matches(ms.get(j), request)) {
            Candidate c = new Candidate(r, ri, rules.get(i), i, j, ms.get(j), hostScore[0], hostScore[1]);
            if (best == null || compare(c, best) < 0) {
              best = c;
            }
          }
        }
      }
    }
    return best;
  }

  /** Where {@code request} goes. */
  public RouteResult route(HttpRequest request) {
    Candidate best = find(request);
    String host = request.hostname();
    if (best == null) {
      return RouteResult.notFound("no HTTPRoute rule matches host \"" + host + "\" path \"" + request.path()
          + "\" (404)");
    }
    String routeName = HTTPRoute.KIND + "/" + best.route.metadata().key();
    String why = "matched rule " + best.ruleIndex + named(best.rule) + " match " + best.matchIndex;
    String ns = best.route.metadata().namespace();
    int port = requestPort(request);
    RouteResult answered = RouteFilters.ruleAnswer(routeName, why, best.rule, best.match, request, "http", port, ns);
    if (answered != null) {
      return answered;
    }
    List<RouteResult.Backend> backends = new ArrayList<>();
    RouteResult.Backend heaviest = null;
    for (HTTPBackendRef b : best.rule.backendRefs()) {
      String service = (b.namespace().isEmpty() ? ns : b.namespace()) + "/" + b.name();
      Object bport = b.port() == null ? 0 : b.port();
      // a backend of another kind than Service takes no traffic (a Gateway reports it as InvalidKind)
      boolean usable = b.isService() && b.weight() > 0;
      RouteResult.Backend be = new RouteResult.Backend(service, bport, b.weight(), usable
          ? RouteFilters.backendAnswer(routeName, why, best.rule, b, service, bport, best.match, request, "http", port,
              ns) : null);
      backends.add(be);
      if (usable && (heaviest == null || b.weight() > heaviest.weight())) {
        heaviest = be;
      }
    }
    if (heaviest == null) {
      return RouteResult.noBackend(routeName, backends, why + ", but it has no Service backend with weight above 0 "
          + "(500)");
    }
    return heaviest.result().withBackends(backends);
  }

  /** {@code " (name)"} for a named rule, else empty: how messages name a rule. */
  static String named(HTTPRouteRule rule) {
    return rule.name().isEmpty() ? "" : " (" + rule.name() + ")";
  }

  /**
   * The port of the request's host ({@code host:port}), else 80: where a redirect without scheme or port points. A
   * port is ASCII digits (RFC 3986 {@code port = *DIGIT}) up to 65535; anything else counts as none.
   */
  private static int requestPort(HttpRequest request) {
    String h = request.host();
    int colon = h.lastIndexOf(':');
    if (colon < 0 || h.lastIndexOf(']') > colon || colon + 1 == h.length() || h.charAt(colon + 1) < '0'
        || h.charAt(colon + 1) > '9') {
      return 80; // no port, or one with a sign
    }
    try {
      int port = GoIntegers.parseInt32(h.substring(colon + 1)); // ASCII digits only
      return port <= 65535 ? port : 80;
    } catch (NumberFormatException e) {
      return 80;
    }
  }

  /**
   * Picks a backend of a matched result by weight, as a data plane spreads requests (share = weight / sum).
   *
   * @return the backend, or {@code null} when no backend has weight above 0
   */
  public static RouteResult.@Nullable Backend pickBackend(RouteResult result, SplittableRandom random) {
    long total = 0;
    for (RouteResult.Backend b : result.backends()) {
      total += b.weight();
    }
    if (total == 0) {
      return null;
    }
    long x = random.nextLong(total);
    for (RouteResult.Backend b : result.backends()) {
      x -= b.weight();
      if (x < 0) {
        return b;
      }
    }
    throw new IllegalStateException("weights changed during pick");
  }

  /** {exact-host chars, matching-host chars}, or null when the route does not serve {@code host}. */
  static int @Nullable [] hostScore(List<String> hostnames, String host) {
    if (hostnames.isEmpty()) {
      return new int[] {0, 0};
    }
    int[] best = null;
    for (String h : hostnames) {
      String lower = h.toLowerCase(Locale.ROOT);
      int[] s = null;
      if (lower.startsWith("*.")) {
        String suffix = lower.substring(1);
        if (host.endsWith(suffix) && host.length() > suffix.length()) {
          s = new int[] {0, lower.length()};
        }
      } else if (lower.equals(host)) {
        s = new int[] {lower.length(), lower.length()};
      }
      if (s != null && (best == null || s[0] > best[0] || (s[0] == best[0] && s[1] > best[1]))) {
        best = s;
      }
    }
    return best;
  }

  static boolean matches(HTTPRouteMatch m, HttpRequest req) {
    HTTPPathMatch p = m.path();
    boolean pathOk = switch (p.type()) {
      case Exact -> p.value().equals(req.path());
      case PathPrefix -> Paths.prefixMatches(p.value(), req.path());
      case RegularExpression -> Pattern.compile(p.value()).matcher(req.path()).matches();
    };
    if (!pathOk) {
      return false;
    }
    if (!m.method().isEmpty() && !m.method().equals(req.method())) {
      return false;
    }
    Set<String> seen = new HashSet<>();
    for (HTTPHeaderMatch h : m.headers()) {
      if (!seen.add(h.name().toLowerCase(Locale.ROOT))) {
        continue; // only the first entry of a name counts
      }
      String v = req.header(h.name());
      if (v == null || !value(h.type(), h.value(), v)) {
        return false;
      }
    }
    seen.clear();
    for (HTTPQueryParamMatch q : m.queryParams()) {
      if (!seen.add(q.name())) {
        continue;
      }
      String v = req.queryParam(q.name());
      if (v == null || !value(q.type(), q.value(), v)) {
        return false;
      }
    }
    return true;
  }

  private static boolean value(ValueMatchType type, String want, String got) {
    return type == ValueMatchType.Exact ? want.equals(got) : Pattern.compile(want).matcher(got).matches();
  }

  /** Negative when {@code a} takes precedence over {@code b}. */
  private static int compare(Candidate a, Candidate b) {
    int c = Integer.compare(b.exactHostLen, a.exactHostLen);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(b.hostLen, a.hostLen);
    if (c != 0) {
      return c;
    }
    c = Integer.compare(pathRank(b.match.path()), pathRank(a.match.path()));
    if (c != 0) {
      return c;
    }
    if (a.match.path().type() == PathMatchType.PathPrefix && b.match.path().type() == PathMatchType.PathPrefix) {
      c = Integer.compare(b.match.path().value().length(), a.match.path().value().length());
      if (c != 0) {
        return c;
      }
    }
    c = Boolean.compare(!b.match.method().isEmpty(), !a.match.method().isEmpty());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(b.match.headers().size(), a.match.headers().size());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(b.match.queryParams().size(), a.match.queryParams().size());
    if (c != 0) {
      return c;
    }
    c = created(a.route).compareTo(created(b.route));
    if (c != 0) {
      return c;
    }
    c = a.route.metadata().key().compareTo(b.route.metadata().key());
    if (c != 0) {
      return c;
    }
    c = Integer.compare(a.ruleIndex, b.ruleIndex);
    return c != 0 ? c : Integer.compare(a.matchIndex, b.matchIndex);
  }

  private static Instant created(HTTPRoute r) {
    Instant t = r.metadata().creationTimestamp();
    return t == null ? Instant.MIN : t;
  }

  /** Exact 2, PathPrefix 1, RegularExpression 0 (implementation-specific: after the core types here). */
  private static int pathRank(HTTPPathMatch p) {
    return switch (p.type()) {
      case Exact -> 2;
      case PathPrefix -> 1;
      case RegularExpression -> 0;
    };
  }
}
