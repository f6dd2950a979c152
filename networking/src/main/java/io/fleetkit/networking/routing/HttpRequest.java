package io.fleetkit.networking.routing;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request as routing sees it: host (a port is ignored), path, query parameters in order, method, headers.
 *
 * @param headers names in any case; matched case-insensitively
 * @param query name-value pairs in request order (names case-sensitive; repeated names allowed)
 */
public record HttpRequest(String host, String path, List<Map.Entry<String, String>> query, String method,
    Map<String, String> headers) {
  public HttpRequest {
    Objects.requireNonNull(host, "host");
    Objects.requireNonNull(path, "path");
    query = List.copyOf(query);
    Objects.requireNonNull(method, "method");
    Map<String, String> h = new LinkedHashMap<>();
    headers.forEach((k, v) -> h.putIfAbsent(k.toLowerCase(Locale.ROOT), v));
    headers = Map.copyOf(h);
  }

  /**
   * A GET of {@code target} ({@code /path?query}) on {@code host}.
   *
   * @throws IllegalArgumentException when the path does not start with {@code /}
   */
  public static HttpRequest get(String host, String target) {
    return of("GET", host, target, Map.of());
  }

  /**
   * A request of {@code method} for {@code target} ({@code /path?a=1&b=2}).
   *
   * @throws IllegalArgumentException when the path does not start with {@code /}
   */
  public static HttpRequest of(String method, String host, String target, Map<String, String> headers) {
    String path = target.isEmpty() ? "/" : target;
    List<Map.Entry<String, String>> query = new ArrayList<>();
    int q = path.indexOf('?');
    if (q >= 0) {
      for (String kv : path.substring(q + 1).split("&")) {
        if (kv.isEmpty()) {
          continue;
        }
        int eq = kv.indexOf('=');
        String k = decode(eq < 0 ? kv : kv.substring(0, eq));
        String v = eq < 0 ? "" : decode(kv.substring(eq + 1));
        query.add(Map.entry(k, v));
      }
      path = path.substring(0, q);
    }
    if (!path.startsWith("/")) {
      throw new IllegalArgumentException("request path \"" + target + "\" must start with '/'");
    }
    return new HttpRequest(host, path, query, method.toUpperCase(Locale.ROOT), headers);
  }

  private static String decode(String s) {
    try {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      return s;
    }
  }

  /** The host without a port, lower case. */
  public String hostname() {
    String h = host;
    if (h.startsWith("[")) {
      int end = h.indexOf(']');
      return (end > 0 ? h.substring(0, end + 1) : h).toLowerCase(Locale.ROOT);
    }
    int colon = h.indexOf(':');
    return (colon >= 0 ? h.substring(0, colon) : h).toLowerCase(Locale.ROOT);
  }

  /** The first value of header {@code name} (any case), or {@code null}. */
  public @Nullable String header(String name) {
    return headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** The first value of query parameter {@code name} (exact case), or {@code null}. */
  public @Nullable String queryParam(String name) {
    for (Map.Entry<String, String> e : query) {
      if (e.getKey().equals(name)) {
        return e.getValue();
      }
    }
    return null;
  }
}
