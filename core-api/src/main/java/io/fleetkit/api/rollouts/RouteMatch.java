package io.fleetkit.api.rollouts;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One condition set of a {@link CanaryStep.SetMirrorRoute} (Argo Rollouts' {@code RouteMatch}): every part that is
 * set must hold.
 *
 * @param method the HTTP method; {@code null} for any
 * @param path the request path; {@code null} for any
 * @param headers header name to value match, in the manifest's order
 */
public record RouteMatch(@Nullable StringMatch method, @Nullable StringMatch path, Map<String, StringMatch> headers) {
  public RouteMatch {
    Objects.requireNonNull(headers, "headers");
    headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
  }
}
