package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.BackendObjectReference;
import io.fleetkit.api.gateway.Fraction;
import io.fleetkit.api.gateway.HTTPBackendRef;
import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPRequestMirrorFilter;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPURLRewriteFilter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Applies filters to a request, in their order (a rule's, then those of the chosen backend): what the backend
 * receives (URLRewrite, RequestHeaderModifier), the redirect answered instead (RequestRedirect), what is done to the
 * response (ResponseHeaderModifier, CORS), the copies sent elsewhere (RequestMirror: of the request as finally
 * forwarded) and a CORS preflight the Gateway answers itself (then nothing is forwarded, redirected or mirrored).
 * The API forbids combining a redirect with a rewrite and repeating a filter type other than RequestMirror in one
 * list ({@link io.fleetkit.api.gateway.HTTPRoute} checks it), so the order only matters between a rewrite and a
 * header modifier, which touch different parts here.
 */
final class RouteFilters {
  private RouteFilters() {}

  /**
   * The effects of the filters.
   *
   * @param forwarded the request the backend receives; {@code null} when a redirect or a CORS preflight answers
   * @param redirect the redirect answered instead of forwarding, or {@code null}
   * @param response the changes to the backend's response headers
   * @param mirrors the copies of the forwarded request, in filter order
   * @param cors the CORS filter's answer, or {@code null} (no CORS filter, or no {@code Origin} header)
   */
  record Applied(@Nullable HttpRequest forwarded, @Nullable Redirect redirect, HeaderModifier response,
      List<Mirror> mirrors, @Nullable Cors cors) {
    /** The status: the redirect's, else 200 (forwarded, or a preflight answered). */
    int status() {
      return redirect != null && (cors == null || !cors.preflight()) ? redirect.statusCode() : 200;
    }
  }

  /**
   * @param scheme the scheme the request arrived with ({@code https} on an HTTPS listener, else {@code http})
   * @param port the port the request arrived on (the listener's port)
   * @param namespace the route's namespace, for mirror backends without one
   */
  static Applied apply(List<HTTPRouteFilter> filters, HTTPRouteMatch match, HttpRequest request, String scheme,
      int port, String namespace) {
    HttpRequest fwd = request;
    Redirect redirect = null;
    HeaderModifier response = HeaderModifier.NONE;
    List<HTTPRequestMirrorFilter> mirrorFilters = new ArrayList<>();
    Cors cors = null;
    for (HTTPRouteFilter f : filters) {
      switch (f.type()) {
        case RequestHeaderModifier -> fwd = new HttpRequest(fwd.host(), fwd.path(), fwd.query(), fwd.method(),
            new HeaderModifier(f.requestHeaderModifier()).apply(fwd.headers()));
        case ResponseHeaderModifier -> response = response.then(new HeaderModifier(f.responseHeaderModifier()));
        case URLRewrite -> fwd = rewrite(f.urlRewrite(), match, fwd);
        case RequestRedirect -> redirect = redirect(f.requestRedirect(), match, request, scheme, port);
        case RequestMirror -> mirrorFilters.add(Objects.requireNonNull(f.requestMirror(), "requestMirror"));
        case CORS -> cors = Cors.answer(Objects.requireNonNull(f.cors(), "cors"), request);
      }
    }
    if (cors != null && cors.preflight()) {
      return new Applied(null, null, HeaderModifier.NONE, List.of(), cors);
    }
    if (redirect != null) {
      return new Applied(null, redirect, response, List.of(), cors);
    }
    List<Mirror> mirrors = new ArrayList<>();
    for (HTTPRequestMirrorFilter m : mirrorFilters) {
      BackendObjectReference b = m.backendRef();
      String ns = b.namespace().isEmpty() ? namespace : b.namespace();
      Fraction share = m.share();
      mirrors.add(new Mirror(ns + "/" + b.name(), b.port() == null ? 0 : b.port(), fwd, share.numerator(),
          share.denominator()));
    }
    return new Applied(fwd, null, response, mirrors, cors);
  }

  /**
   * The answer of the rule's own filters when they answer before a backend is chosen (a redirect or a CORS
   * preflight), else {@code null}.
   */
  static @Nullable RouteResult ruleAnswer(String route, String why, HTTPRouteRule rule, HTTPRouteMatch match,
      HttpRequest request, String scheme, int port, String namespace) {
    Applied a = apply(rule.filters(), match, request, scheme, port, namespace);
    return a.forwarded() == null ? RouteResult.applied(route, null, null, why, a, null) : null;
  }

  /** What the request gets from backend {@code b} of {@code rule}: the rule's filters, then the backend's. */
  static RouteResult backendAnswer(String route, String why, HTTPRouteRule rule, HTTPBackendRef b, String service,
      Object backendPort, HTTPRouteMatch match, HttpRequest request, String scheme, int port, String namespace) {
    List<HTTPRouteFilter> all = rule.filters();
    if (!b.filters().isEmpty()) {
      all = new ArrayList<>(rule.filters());
      all.addAll(b.filters());
    }
    return RouteResult.applied(route, service, backendPort, why, apply(all, match, request, scheme, port,
        namespace), rule);
  }

  private static HttpRequest rewrite(@Nullable HTTPURLRewriteFilter f, HTTPRouteMatch match, HttpRequest r) {
    if (f == null) {
      return r;
    }
    String host = f.hostname() == null ? r.host() : f.hostname();
    String path = f.path() == null ? r.path() : newPath(f.path(), match, r.path());
    return new HttpRequest(host, path, r.query(), r.method(), r.headers());
  }

  /**
   * The redirect: each part the filter leaves unset comes from the request; the port is the filter's, else the
   * well-known port of the filter's scheme, else the port the request arrived on (the API's rule), and is left out
   * of the Location when it is the scheme's well-known one.
   */
  private static @Nullable Redirect redirect(@Nullable HTTPRequestRedirectFilter f, HTTPRouteMatch match,
      HttpRequest r, String scheme, int port) {
    if (f == null) {
      return null;
    }
    String s = f.scheme() == null ? scheme : f.scheme();
    int p;
    if (f.port() != null) {
      p = f.port();
    } else if (f.scheme() != null) {
      p = f.scheme().equals("https") ? 443 : 80;
    } else {
      p = port;
    }
    String host = f.hostname() == null ? r.hostname() : f.hostname();
    String path = f.path() == null ? r.path() : newPath(f.path(), match, r.path());
    return Redirect.of(f.statusCode(), s, host, p, path + query(r));
  }

  private static String newPath(HTTPPathModifier m, HTTPRouteMatch match, String path) {
    return switch (m.type()) {
      case ReplaceFullPath -> m.replaceFullPath();
      case ReplacePrefixMatch -> Paths.replacePrefix(match.path().value(), m.replacePrefixMatch(), path);
    };
  }

  private static String query(HttpRequest r) {
    if (r.query().isEmpty()) {
      return "";
    }
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, String> e : r.query()) {
      b.append(b.length() == 0 ? '?' : '&').append(URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8))
          .append('=').append(URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8));
    }
    return b.toString();
  }
}
