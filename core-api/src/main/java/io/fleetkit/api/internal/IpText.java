package io.fleetkit.api.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Textual IP addresses and CIDRs as Kubernetes' {@code IsValidIP} and {@code IsValidCIDR} accept them (dotted IPv4,
 * IPv6 with {@code ::} compression and an optional dotted IPv4 tail), without name resolution. Stateless.
 */
public final class IpText {
  /** Kubernetes' {@code IsValidIP} message. */
  public static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
  /** Kubernetes' {@code IsValidCIDR} message. */
  public static final String INVALID_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

  private static final Pattern IPV4 =
      Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
  private static final Pattern HEX_GROUP = Pattern.compile("[0-9a-fA-F]{1,4}");
  private static final Pattern PREFIX = Pattern.compile("\\d{1,3}");

  private IpText() {}

  /**
   * The special ranges an address falls in, as Kubernetes' {@code ValidateNonSpecialIP} reports them for external
   * IPs and endpoints: unspecified, loopback, link-local unicast, link-local multicast (an IPv4-mapped IPv6 address
   * counts as its IPv4 address). Empty for any other address.
   *
   * @throws IllegalArgumentException if {@code ip} is not an address ({@link #isIp})
   */
  public static List<String> specialRanges(String ip) {
    if (!isIp(ip)) {
      throw new IllegalArgumentException("\"" + ip + "\" " + INVALID_IP);
    }
    InetAddress a;
    try {
      a = InetAddress.getByName(ip); // a literal: parsed, never resolved
    } catch (UnknownHostException e) {
      throw new IllegalArgumentException("\"" + ip + "\" " + INVALID_IP, e);
    }
    List<String> out = new ArrayList<>(1);
    if (a.isAnyLocalAddress()) {
      out.add("may not be unspecified (" + ip + ")");
    }
    if (a.isLoopbackAddress()) {
      out.add("may not be in the loopback range (127.0.0.0/8, ::1/128)");
    }
    if (a.isLinkLocalAddress()) {
      out.add("may not be in the link-local range (169.254.0.0/16, fe80::/10)");
    }
    if (a.isMCLinkLocal()) {
      out.add("may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)");
    }
    return out;
  }

  /** Whether {@code s} is an IPv4 or IPv6 address. */
  public static boolean isIp(String s) {
    return isIpv4(s) || isIpv6(s);
  }

  /** Whether {@code s} is a dotted IPv4 address. */
  public static boolean isIpv4(String s) {
    return IPV4.matcher(s).matches();
  }

  /** Whether {@code s} is an IPv6 address: eight groups, or fewer with one {@code ::}, the last two maybe IPv4. */
  public static boolean isIpv6(String s) {
    if (s.indexOf(':') < 0) {
      return false;
    }
    int compressed = s.indexOf("::");
    if (compressed >= 0 && s.indexOf("::", compressed + 1) >= 0) {
      return false;
    }
    int groups = 0;
    String[] parts = compressed >= 0
        ? new String[] {s.substring(0, compressed), s.substring(compressed + 2)} : new String[] {s};
    for (int p = 0; p < parts.length; p++) {
      if (parts[p].isEmpty()) {
        continue;
      }
      String[] fields = parts[p].split(":", -1);
      for (int i = 0; i < fields.length; i++) {
        boolean last = p == parts.length - 1 && i == fields.length - 1;
        if (last && fields[i].indexOf('.') >= 0) {
          if (!isIpv4(fields[i])) {
            return false;
          }
          groups += 2;
        } else if (HEX_GROUP.matcher(fields[i]).matches()) {
          groups++;
        } else {
          return false;
        }
      }
    }
    return compressed >= 0 ? groups <= 7 : groups == 8;
  }

  /** Whether {@code s} is {@code address/prefix} with a prefix length the address's family allows. */
  public static boolean isCidr(String s) {
    int slash = s.indexOf('/');
    if (slash < 0 || !PREFIX.matcher(s.substring(slash + 1)).matches()) {
      return false;
    }
    String ip = s.substring(0, slash);
    int prefix = Integer.parseInt(s.substring(slash + 1));
    return isIpv4(ip) ? prefix <= 32 : isIpv6(ip) && prefix <= 128;
  }
}
