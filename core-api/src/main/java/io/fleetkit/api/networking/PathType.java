package io.fleetkit.api.networking;

/** How an Ingress path matches ({@code pathType}), spelled as in Kubernetes. */
public enum PathType {
  /** The whole path, case-sensitive. */
  Exact,
  /** Element-wise prefix of the path split on {@code /}. */
  Prefix,
  /** Up to the controller; FleetKit treats it as {@code Prefix}. */
  ImplementationSpecific
}
