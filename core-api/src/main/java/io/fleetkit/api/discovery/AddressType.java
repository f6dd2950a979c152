package io.fleetkit.api.discovery;

/** The kind of addresses an EndpointSlice holds ({@code addressType}, immutable), spelled as in Kubernetes. */
public enum AddressType {
  IPv4,
  IPv6,
  FQDN,
  /** Deprecated by Kubernetes; the EndpointSlice controller replaces slices of this type. */
  IP
}
