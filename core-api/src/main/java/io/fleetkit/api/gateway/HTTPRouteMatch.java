package io.fleetkit.api.gateway;

import java.util.List;
import java.util.Objects;

/**
 * One match of a rule: every condition must hold (AND); the matches of a rule are alternatives (OR).
 *
 * @param path the path condition ({@link HTTPPathMatch#EVERYTHING} when unset)
 * @param method an HTTP method, empty for any
 */
public record HTTPRouteMatch(HTTPPathMatch path, List<HTTPHeaderMatch> headers,
    List<HTTPQueryParamMatch> queryParams, String method) {
  public HTTPRouteMatch {
    Objects.requireNonNull(path, "path");
    headers = List.copyOf(headers);
    queryParams = List.copyOf(queryParams);
    Objects.requireNonNull(method, "method");
  }

  public static HTTPRouteMatch path(PathMatchType type, String value) {
    return new HTTPRouteMatch(new HTTPPathMatch(type, value), List.of(), List.of(), "");
  }
}
