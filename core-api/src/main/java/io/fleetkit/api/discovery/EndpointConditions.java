package io.fleetkit.api.discovery;

import org.jspecify.annotations.Nullable;

/**
 * The conditions of one endpoint. Each is {@code null} when unknown; consumers read an unknown {@code ready} as
 * ready (Kubernetes' rule).
 *
 * @param ready the endpoint may receive new traffic: serving and not terminating, or forced by the Service's
 *     {@code publishNotReadyAddresses}
 * @param serving the pod reports Ready, whether terminating or not
 * @param terminating the pod is being deleted
 */
public record EndpointConditions(@Nullable Boolean ready, @Nullable Boolean serving, @Nullable Boolean terminating) {
  /** All three unknown. */
  public static final EndpointConditions UNKNOWN = new EndpointConditions(null, null, null);

  public static EndpointConditions of(boolean ready, boolean serving, boolean terminating) {
    return new EndpointConditions(ready, serving, terminating);
  }

  /** {@code ready}, reading unknown as true. */
  public boolean isReady() {
    return ready == null || ready;
  }

  /** {@code serving}, reading unknown as {@code ready} (Kubernetes' fallback for old writers). */
  public boolean isServing() {
    return serving == null ? isReady() : serving;
  }

  /** {@code terminating}, reading unknown as false. */
  public boolean isTerminating() {
    return terminating != null && terminating;
  }
}
