package io.fleetkit.api.gateway;

/** How a header or query parameter value matches, spelled as in the Gateway API. */
public enum ValueMatchType {
  Exact,
  RegularExpression
}
