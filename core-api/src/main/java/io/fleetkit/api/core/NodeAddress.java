package io.fleetkit.api.core;

import io.fleetkit.api.net.IpText;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** A node address; {@code type} is e.g. {@link #INTERNAL_IP}, {@link #EXTERNAL_IP} or {@link #HOSTNAME}. */
public record NodeAddress(String type, String address) {
  /** {@code NodeInternalIP}: an address routable only within the cluster. */
  public static final String INTERNAL_IP = "InternalIP";
  /** {@code NodeExternalIP}: an address reachable from outside the cluster. */
  public static final String EXTERNAL_IP = "ExternalIP";
  /** {@code NodeHostName}: the node's host name, as the kubelet reports it. */
  public static final String HOSTNAME = "Hostname";

  public NodeAddress {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(address, "address");
  }

  /**
   * The host IPs of a node with {@code addresses}, as upstream's {@code GetNodeHostIPs} ({@code pkg/util/node})
   * gives them to the kubelet: the {@link #INTERNAL_IP} addresses, then the {@link #EXTERNAL_IP} ones, each in their
   * order, texts that are not an IP (by upstream's {@code ParseIPSloppy}, {@link IpText#parseSloppy}: an IPv4 octet
   * may have leading zeros, an IPv4-mapped address is IPv4) skipped; of these the first, and then the first of the
   * other IP family when there is one. In canonical text ({@link IpText#format}). Empty when no address qualifies.
   */
  public static List<String> hostIPs(List<NodeAddress> addresses) {
    List<byte[]> all = new ArrayList<>(addresses.size());
    for (String type : List.of(INTERNAL_IP, EXTERNAL_IP)) {
      for (int i = 0; i < addresses.size(); i++) {
        NodeAddress a = addresses.get(i);
        byte[] ip = a.type.equals(type) ? IpText.parseSloppy(a.address) : null;
        if (ip != null) { // an IPv4-mapped address is IPv4, as Go's To4 and String read it
          all.add(IpText.isV4Mapped(ip) ? java.util.Arrays.copyOfRange(ip, 12, 16) : ip);
        }
      }
    }
    if (all.isEmpty()) {
      return List.of();
    }
    byte[] first = all.get(0);
    for (byte[] ip : all) {
      if (ip.length != first.length) {
        return List.of(IpText.format(first), IpText.format(ip));
      }
    }
    return List.of(IpText.format(first));
  }
}
