package io.fleetkit.networking.routing;

import io.fleetkit.api.gateway.HTTPCORSFilter;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@code CORS} filter answers to a request carrying an {@code Origin} header. A preflight ({@code OPTIONS}
 * with {@code Access-Control-Request-Method}) is answered by the Gateway with status 200 and is not forwarded; other
 * requests are forwarded and these headers are added to the backend's response. When the origin is not allowed the
 * headers are empty (the preflight is still answered 200, which the API permits; the client then refuses the
 * cross-origin request).
 *
 * <p>For an allowed origin: {@code Access-Control-Allow-Origin} echoes the request's {@code Origin} (also for
 * {@code allowOrigins: [*]}, which the API permits and requires with credentials);
 * {@code Access-Control-Allow-Credentials: true} when {@code allowCredentials}; {@code Access-Control-Expose-Headers}
 * lists {@code exposeHeaders} (left out when it is {@code *} with credentials, which the API forbids answering).
 * A preflight also gets {@code Access-Control-Allow-Methods} (the list, or the requested method for {@code *}),
 * {@code Access-Control-Allow-Headers} when the request names headers (the list, or the requested ones for
 * {@code *}) and {@code Access-Control-Max-Age}. Header names are lower case; lists are joined with {@code ", "}.
 *
 * @param preflight whether the Gateway answers the request itself
 * @param headers the CORS response headers, in the order above
 */
public record Cors(boolean preflight, Map<String, String> headers) {
  public static final String ALLOW_ORIGIN = "access-control-allow-origin";
  public static final String ALLOW_CREDENTIALS = "access-control-allow-credentials";
  public static final String ALLOW_METHODS = "access-control-allow-methods";
  public static final String ALLOW_HEADERS = "access-control-allow-headers";
  public static final String EXPOSE_HEADERS = "access-control-expose-headers";
  public static final String MAX_AGE = "access-control-max-age";

  public Cors {
    Objects.requireNonNull(headers, "headers");
    headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }

  /** Whether the origin was allowed. */
  public boolean allowed() {
    return headers.containsKey(ALLOW_ORIGIN);
  }

  /** The answer of {@code f} to {@code r}, or {@code null} when the request has no {@code Origin} header. */
  static @Nullable Cors answer(HTTPCORSFilter f, HttpRequest r) {
    String origin = r.header("Origin");
    if (origin == null) {
      return null;
    }
    String requestedMethod = r.header("Access-Control-Request-Method");
    boolean preflight = r.method().equals("OPTIONS") && requestedMethod != null;
    Map<String, String> h = new LinkedHashMap<>();
    if (!allowed(f.allowOrigins(), origin)) {
      return new Cors(preflight, h);
    }
    h.put(ALLOW_ORIGIN, origin);
    if (f.allowCredentials()) {
      h.put(ALLOW_CREDENTIALS, "true");
    }
    boolean starExpose = f.exposeHeaders().contains("*");
    if (!f.exposeHeaders().isEmpty() && !(starExpose && f.allowCredentials())) {
      h.put(EXPOSE_HEADERS, String.join(", ", f.exposeHeaders()));
    }
    if (preflight) {
      if (!f.allowMethods().isEmpty()) {
        h.put(ALLOW_METHODS, f.allowMethods().contains("*") ? requestedMethod : String.join(", ",
            f.allowMethods()));
      }
      String requestedHeaders = r.header("Access-Control-Request-Headers");
      if (requestedHeaders != null && !f.allowHeaders().isEmpty()) {
        h.put(ALLOW_HEADERS, f.allowHeaders().contains("*") ? requestedHeaders : String.join(", ",
            f.allowHeaders()));
      }
      h.put(MAX_AGE, Integer.toString(f.maxAge()));
    }
    return new Cors(preflight, h);
  }

  /**
   * Whether {@code origin} ({@code scheme://host[:port]}) is one of {@code allowed}: {@code *} allows every origin;
   * otherwise scheme and port are equal (an absent port is 80 for http, 443 for https) and the host is equal,
   * ignoring case, or ends with the part after a leading {@code *} (which stands for one or more labels).
   */
  static boolean allowed(List<String> allowed, String origin) {
    String[] o = parse(origin);
    if (allowed.contains("*")) {
      return true;
    }
    if (o == null) {
      return false;
    }
    for (String a : allowed) {
      String[] p = parse(a);
      if (p == null || !p[0].equals(o[0]) || !p[2].equals(o[2])) {
        continue;
      }
      if (p[1].equals("*")) {
        return true;
      }
      if (p[1].startsWith("*.") ? o[1].endsWith(p[1].substring(1)) && o[1].length() > p[1].length() - 1
          : p[1].equals(o[1])) {
        return true;
      }
    }
    return false;
  }

  /** {scheme, host, port} in lower case with the scheme's default port, or {@code null} when malformed. */
  private static String @Nullable [] parse(String origin) {
    String s = origin.toLowerCase(Locale.ROOT);
    int sep = s.indexOf("://");
    if (sep <= 0) {
      return null;
    }
    String scheme = s.substring(0, sep);
    String rest = s.substring(sep + 3);
    int colon = rest.lastIndexOf(':');
    String host = colon < 0 ? rest : rest.substring(0, colon);
    String port = colon < 0 ? (scheme.equals("https") ? "443" : scheme.equals("http") ? "80" : "") :
        rest.substring(colon + 1);
    return host.isEmpty() ? null : new String[] {scheme, host, port};
  }
}
