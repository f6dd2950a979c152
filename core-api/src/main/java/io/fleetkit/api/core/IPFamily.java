package io.fleetkit.api.core;

import io.fleetkit.api.net.IpText;

/** An IP family ({@code spec.ipFamilies} of a Service), spelled as in Kubernetes. */
public enum IPFamily {
  IPv4,
  IPv6;

  /**
   * The family of a textual address, as Kubernetes' {@code netutils.IsIPv6String} reads it: an address by
   * {@link IpText#parseSloppy} is {@code IPv4} when dotted or IPv4-mapped ({@code ::ffff:10.0.0.1}), else
   * {@code IPv6}; text that is no address is {@code IPv6} when it contains a colon, else {@code IPv4}.
   */
  public static IPFamily of(String address) {
    byte[] bytes = IpText.parseSloppy(address);
    if (bytes == null) {
      return address.indexOf(':') >= 0 ? IPv6 : IPv4;
    }
    return bytes.length == 4 || IpText.isV4Mapped(bytes) ? IPv4 : IPv6;
  }

  /** The other family of a dual-stack pair. */
  public IPFamily other() {
    return this == IPv4 ? IPv6 : IPv4;
  }
}
