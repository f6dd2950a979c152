package io.fleetkit.api.core;

/** An IP family ({@code spec.ipFamilies} of a Service), spelled as in Kubernetes. */
public enum IPFamily {
  IPv4,
  IPv6;

  /** The family of a textual address: {@code IPv6} when it contains a colon, else {@code IPv4}. */
  public static IPFamily of(String address) {
    return address.indexOf(':') >= 0 ? IPv6 : IPv4;
  }

  /** The other family of a dual-stack pair. */
  public IPFamily other() {
    return this == IPv4 ? IPv6 : IPv4;
  }
}
