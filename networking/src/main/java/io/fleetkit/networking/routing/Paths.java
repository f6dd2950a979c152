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

  /**
   * {@code ReplacePrefixMatch}: the part of {@code path} that the {@code PathPrefix} {@code prefix} matched
   * (element-wise) becomes {@code replacement}; trailing slashes of both are ignored and an empty result is
   * {@code /} (the API's table: {@code /foo/bar} with {@code /foo} and {@code /xyz} is {@code /xyz/bar},
   * {@code /foo/} is {@code /xyz/}, {@code /foo} with replacement {@code ""} or {@code /} is {@code /}).
   */
  static String replacePrefix(String prefix, String replacement, String path) {
    String rest = path.substring(Math.min(trimTrailingSlash(prefix).length(), path.length()));
    String out = trimTrailingSlash(replacement) + rest;
    return out.isEmpty() ? "/" : out;
  }
}
