package io.fleetkit.api.rollouts;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One header condition of a {@link CanaryStep.SetHeaderRoute} (Argo Rollouts' {@code HeaderRoutingMatch}).
 *
 * @param headerName the request header's name
 * @param headerValue how its value matches; {@code null} only as read from a bad manifest ({@link Rollout}
 *     refuses it with Argo's message)
 */
public record HeaderRoutingMatch(String headerName, @Nullable StringMatch headerValue) {
  public HeaderRoutingMatch {
    Objects.requireNonNull(headerName, "headerName");
  }

  public static HeaderRoutingMatch of(String headerName, StringMatch headerValue) {
    return new HeaderRoutingMatch(headerName, Objects.requireNonNull(headerValue, "headerValue"));
  }
}
