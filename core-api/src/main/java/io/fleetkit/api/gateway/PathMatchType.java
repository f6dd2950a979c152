package io.fleetkit.api.gateway;

/** How an HTTPRoute path matches, spelled as in the Gateway API. */
public enum PathMatchType {
  /** The whole path, case-sensitive. */
  Exact,
  /** Element-wise prefix; a trailing {@code /} is ignored. */
  PathPrefix,
  /** A regular expression (Java syntax here; implementation-specific in the API). */
  RegularExpression
}
