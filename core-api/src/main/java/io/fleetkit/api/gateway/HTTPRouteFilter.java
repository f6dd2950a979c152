package io.fleetkit.api.gateway;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One filter of a rule or of a backend, shaped as the API's union: {@code type} names the filter and exactly the
 * field of that type is set ({@link HTTPRoute} checks it, with the API's messages such as
 * {@code filter.requestRedirect must be specified for RequestRedirect filter.type}). Build one with the factories.
 */
public record HTTPRouteFilter(HTTPRouteFilterType type, @Nullable HTTPHeaderFilter requestHeaderModifier,
    @Nullable HTTPHeaderFilter responseHeaderModifier, @Nullable HTTPRequestRedirectFilter requestRedirect,
    @Nullable HTTPURLRewriteFilter urlRewrite, @Nullable HTTPRequestMirrorFilter requestMirror,
    @Nullable HTTPCORSFilter cors) {
  public HTTPRouteFilter {
    Objects.requireNonNull(type, "type");
  }

  /** A filter of one of the first four types (no mirror, no CORS part). */
  public HTTPRouteFilter(HTTPRouteFilterType type, @Nullable HTTPHeaderFilter requestHeaderModifier,
      @Nullable HTTPHeaderFilter responseHeaderModifier, @Nullable HTTPRequestRedirectFilter requestRedirect,
      @Nullable HTTPURLRewriteFilter urlRewrite) {
    this(type, requestHeaderModifier, responseHeaderModifier, requestRedirect, urlRewrite, null, null);
  }

  public static HTTPRouteFilter requestHeaderModifier(HTTPHeaderFilter f) {
    return new HTTPRouteFilter(HTTPRouteFilterType.RequestHeaderModifier, f, null, null, null);
  }

  public static HTTPRouteFilter responseHeaderModifier(HTTPHeaderFilter f) {
    return new HTTPRouteFilter(HTTPRouteFilterType.ResponseHeaderModifier, null, f, null, null);
  }

  public static HTTPRouteFilter requestRedirect(HTTPRequestRedirectFilter f) {
    return new HTTPRouteFilter(HTTPRouteFilterType.RequestRedirect, null, null, f, null);
  }

  public static HTTPRouteFilter urlRewrite(HTTPURLRewriteFilter f) {
    return new HTTPRouteFilter(HTTPRouteFilterType.URLRewrite, null, null, null, f);
  }

  public static HTTPRouteFilter requestMirror(HTTPRequestMirrorFilter f) {
    return new HTTPRouteFilter(HTTPRouteFilterType.RequestMirror, null, null, null, null, f, null);
  }

  public static HTTPRouteFilter cors(HTTPCORSFilter f) {
    return new HTTPRouteFilter(HTTPRouteFilterType.CORS, null, null, null, null, null, f);
  }
}
