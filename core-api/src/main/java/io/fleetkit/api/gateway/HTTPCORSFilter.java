package io.fleetkit.api.gateway;

import java.util.List;

/**
 * A {@code CORS} filter (Cross-Origin Resource Sharing): which origins may use the route's responses, and the
 * answer to their preflight requests. {@link HTTPRoute} checks the API's rules: each list a set; {@code *} alone in
 * {@code allowOrigins}, {@code allowMethods} and {@code allowHeaders} when present; origins
 * {@code scheme://host[:port]} with an optional leading {@code *.} in the host (or {@code *});
 * {@code maxAge} at least 1.
 *
 * @param allowOrigins at most 64; {@code *} in a host matches any number of DNS labels to its left; an origin
 *     without port means 80 for {@code http} and 443 for {@code https}
 * @param allowCredentials whether {@code Access-Control-Allow-Credentials: true} is answered
 * @param allowMethods at most 9, the API's methods or {@code *}
 * @param allowHeaders at most 64 header names or {@code *}
 * @param exposeHeaders at most 64 header names
 * @param maxAge seconds a client may cache a preflight answer; the API's default is 5
 */
public record HTTPCORSFilter(List<String> allowOrigins, boolean allowCredentials, List<String> allowMethods,
    List<String> allowHeaders, List<String> exposeHeaders, int maxAge) {
  /** The API's default {@code maxAge}. */
  public static final int DEFAULT_MAX_AGE = 5;

  public HTTPCORSFilter {
    allowOrigins = List.copyOf(allowOrigins);
    allowMethods = List.copyOf(allowMethods);
    allowHeaders = List.copyOf(allowHeaders);
    exposeHeaders = List.copyOf(exposeHeaders);
  }
}
