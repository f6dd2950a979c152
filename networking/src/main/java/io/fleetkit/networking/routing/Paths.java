package io.fleetkit.networking.routing;

/** Path rules shared by Ingress and HTTPRoute. */
final class Paths {
  private Paths() {}

  /**
   * Element-wise prefix match (Ingress {@code Prefix}, Gateway {@code PathPrefix}): the rule's path elements
   * (split on {@code /}, trailing slash ignored) are the first elements of the request path; {@code /} matches
   * every path; {@code /aaa/bb} does not match {@code /aaa/bbb}. Case-sensitive.
   */
  static boolean prefixMatches(String rule, String path) {
    String r = trimTrailingSlash(rule);
    if (r.isEmpty()) {
      return true;
    }
    String p = trimTrailingSlash(path);
    return p.equals(r) || p.startsWith(r + "/");
  }

  static String trimTrailingSlash(String s) {
    int end = s.length();
    while (end > 0 && s.charAt(end - 1) == '/') {
      end--;
    }
    return s.substring(0, end);
  }
}
