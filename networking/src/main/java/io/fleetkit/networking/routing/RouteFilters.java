package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPPathModifier;
import io.fleetkit.api.gateway.HTTPRequestRedirectFilter;
import io.fleetkit.api.gateway.HTTPRouteFilter;
import io.fleetkit.api.gateway.HTTPRouteMatch;
import io.fleetkit.api.gateway.HTTPRouteRule;
import io.fleetkit.api.gateway.HTTPURLRewriteFilter;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Applies the filters of a matched rule to a request, in their order: what the backend receives (URLRewrite,
 * RequestHeaderModifier), the redirect answered instead (RequestRedirect), and what is done to the response
 * (ResponseHeaderModifier). The API forbids combining a redirect with a rewrite or with backends, and repeating a
 * filter type ({@link io.fleetkit.api.gateway.HTTPRoute} checks it), so the order only matters between a rewrite
 * and a header modifier, which touch different parts here.
 */
final class RouteFilters {
  private RouteFilters() {}

  /**
   * The effects of the filters.
   *
   * @param forwarded the request the backend receives
   * @param redirect the redirect answered instead of forwarding, or {@code null}
   * @param response the changes to the backend's response headers
   */
  record Applied(HttpRequest forwarded, @Nullable Redirect redirect, HeaderModifier response) {}

  /**
   * @param scheme the scheme the request arrived with ({@code https} on an HTTPS listener, else {@code http})
   * @param port the port the request arrived on (the listener's port)
   */
  static Applied apply(HTTPRouteRule rule, HTTPRouteMatch match, HttpRequest request, String scheme, int port) {
    HttpRequest fwd = request;
    Redirect redirect = null;
    HeaderModifier response = HeaderModifier.NONE;
    for (HTTPRouteFilter f : rule.filters()) {
      switch (f.type()) {
        case RequestHeaderModifier -> fwd = new HttpRequest(fwd.host(), fwd.path(), fwd.query(), fwd.method(),
            new HeaderModifier(f.requestHeaderModifier()).apply(fwd.headers()));
        case ResponseHeaderModifier -> response = new HeaderModifier(f.responseHeaderModifier());
        case URLRewrite -> fwd = rewrite(f.urlRewrite(), match, fwd);
        case RequestRedirect -> redirect = redirect(f.requestRedirect(), match, request, scheme, port);
      }
    }
    return new Applied(fwd, redirect, response);
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
