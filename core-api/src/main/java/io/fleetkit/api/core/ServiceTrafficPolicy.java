package io.fleetkit.api.core;

/**
 * A Service's {@code internalTrafficPolicy} or {@code externalTrafficPolicy}, spelled as in Kubernetes; defaults to
 * {@code Cluster}.
 */
public enum ServiceTrafficPolicy {
  /** Traffic may go to ready endpoints on any node. */
  Cluster,
  /** Traffic goes only to endpoints on the node that received it; dropped when there are none. */
  Local
}
