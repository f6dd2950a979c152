package io.fleetkit.networking.gateway;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * Host name rules of the Gateway API. A wildcard {@code *.example.com} matches every name with at least one more
 * label ({@code a.example.com}, {@code a.b.example.com}), never {@code example.com} itself. Names compare
 * case-insensitively.
 */
public final class Hostnames {
  private Hostnames() {}

  /** Whether {@code pattern} (exact or {@code *.suffix}) matches the concrete host name {@code host}. */
  public static boolean matches(String pattern, String host) {
    String p = pattern.toLowerCase(Locale.ROOT);
    String h = host.toLowerCase(Locale.ROOT);
    if (p.startsWith("*.")) {
      String suffix = p.substring(1);
      return h.endsWith(suffix) && h.length() > suffix.length() && !h.startsWith("*.");
    }
    return p.equals(h);
  }

  /**
   * The intersection of a listener's hostname and one route hostname, as upstream computes a route's effective
   * hostnames: equal names; a concrete name under the other's wildcard (the concrete one); two wildcards where one's
   * suffix is within the other's (the narrower one). {@code null} when they do not intersect.
   *
   * @param listener the listener hostname, empty for any
   */
  public static @Nullable String intersect(String listener, String route) {
    String l = listener.toLowerCase(Locale.ROOT);
    String r = route.toLowerCase(Locale.ROOT);
    if (l.isEmpty() || l.equals(r)) {
      return r;
    }
    boolean lw = l.startsWith("*.");
    boolean rw = r.startsWith("*.");
    if (lw && !rw) {
      return matches(l, r) ? r : null;
    }
    if (rw && !lw) {
      return matches(r, l) ? l : null;
    }
    if (lw) { // both wildcards
      if (r.endsWith(l.substring(1))) {
        return r;
      }
      if (l.endsWith(r.substring(1))) {
        return l;
      }
    }
    return null;
  }

  /**
   * The host names a route serves on a listener: every non-empty intersection of the listener's hostname with the
   * route's; the listener's hostname when the route has none; the route's when the listener has none. An empty
   * result with both lists non-empty means the route does not attach ({@code NoMatchingListenerHostname}); a result
   * of {@code List.of()} from two empty inputs means every host.
   */
  public static List<String> effective(String listener, List<String> route) {
    if (route.isEmpty()) {
      return listener.isEmpty() ? List.of() : List.of(listener.toLowerCase(Locale.ROOT));
    }
    List<String> out = new ArrayList<>();
    for (String r : route) {
      String i = intersect(listener, r);
      if (i != null && !out.contains(i)) {
        out.add(i);
      }
    }
    return out;
  }

  /**
   * How specifically a listener hostname matches {@code host}, for choosing among listeners on one port: an exact
   * match scores above every wildcard, a longer wildcard above a shorter one, an empty hostname lowest (0);
   * {@code -1} when it does not match.
   */
  public static int listenerScore(String listener, String host) {
    if (listener.isEmpty()) {
      return 0;
    }
    if (!matches(listener, host)) {
      return -1;
    }
    return listener.startsWith("*.") ? listener.length() : 1_000 + listener.length();
  }
}
