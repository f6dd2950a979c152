package io.fleetkit.api.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Textual IP addresses and CIDRs as Kubernetes' {@code IsValidIP} and {@code IsValidCIDR} accept them (Go's
 * {@code net.ParseIP}): dotted IPv4 without leading zeros, IPv6 with at most one {@code ::} and an optional dotted
 * IPv4 tail, ASCII hex digits only; never resolved as names. {@link #parse} is the one parser: every check here is
 * made through it, CIDRs included, and so is the networking module's {@code IpAddress}. The fields Kubernetes
 * validates as "legacy" ones ({@code IsValidIPForLegacyField} and {@code IsValidCIDRForLegacyField} with
 * {@code StrictIPCIDRValidation} off: a Service's addresses and source ranges, a pod's DNS nameservers and host
 * aliases, a node's pod CIDRs, Endpoints and EndpointSlice addresses) also take IPv4 octets with leading zeros, read
 * as decimal ({@link #parseSloppy}, {@code netutils.ParseIPSloppy}; {@link #isCidrSloppy},
 * {@code netutils.ParseCIDRSloppy}, whose prefix length may have leading zeros too), and the API server warns of
 * them ({@link #legacyWarning}, {@link #cidrLegacyWarnings}). Stateless.
 */
public final class IpText {
  /** Kubernetes' {@code IsValidIP} message. */
  public static final String INVALID_IP = "must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)";
  /** Kubernetes' {@code IsValidIPv4Address} message. */
  public static final String INVALID_IPV4 = "must be a valid IPv4 address";
  /** Kubernetes' {@code IsValidIPv6Address} message. */
  public static final String INVALID_IPV6 = "must be a valid IPv6 address";
  /** Kubernetes' {@code IsValidCIDR} message. */
  public static final String INVALID_CIDR = "must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)";

  /** The longest IPv6 literal Go accepts: six groups of four and a dotted quad. */
  private static final int MAX_IPV6_LENGTH = 45;

  private IpText() {}

  /**
   * The address's bytes in network order: 4 for a dotted IPv4 address, 16 for any IPv6 literal (an IPv4-mapped one
   * included); {@code null} when {@code s} is not an address.
   */
  public static byte @Nullable [] parse(String s) {
    return parse(s, false);
  }

  /**
   * As {@link #parse}, but an IPv4 octet (of a dotted address or of an IPv6 address's dotted tail) may have leading
   * zeros, read as decimal ({@code 010.001.002.003} is 10.1.2.3): Kubernetes' {@code ParseIPSloppy}, which its
   * legacy IP fields accept.
   */
  public static byte @Nullable [] parseSloppy(String s) {
    return parse(s, true);
  }

  /** Whether {@code s} is an address by {@link #parseSloppy}: Kubernetes' legacy-field {@code IsValidIP}. */
  public static boolean isIpSloppy(String s) {
    return parseSloppy(s) != null;
  }

  /**
   * Kubernetes' {@code GetWarningsForIP} for an address of a legacy field, without its field path: an address with
   * leading zeros or an IPv4-mapped IPv6 address {@code will be considered invalid in a future Kubernetes release}
   * (the text names the address to use instead), an IPv6 address not in RFC 5952 form should be; {@code null} for
   * an address in its standard form, and for no address at all (that is an error, not a warning).
   */
  public static @Nullable String legacyWarning(String s) {
    byte[] sloppy = parseSloppy(s);
    if (sloppy == null) {
      return null;
    }
    byte[] strict = parse(s);
    if (strict == null || (strict.length == 16 && isV4Mapped(strict))) {
      String use = format(sloppy.length == 16 && isV4Mapped(sloppy) ? Arrays.copyOfRange(sloppy, 12, 16) : sloppy);
      return "non-standard IP address \"" + s + "\" will be considered invalid in a future Kubernetes release: use \""
          + use + "\"";
    }
    String canonical = format(strict);
    if (strict.length == 16 && !canonical.equals(s)) {
      return "IPv6 address \"" + s + "\" should be in RFC 5952 canonical format (\"" + canonical + "\")";
    }
    return null;
  }

  /** Whether 16 address bytes are an IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}). */
  public static boolean isV4Mapped(byte[] address) {
    if (address.length != 16) {
      return false;
    }
    for (int i = 0; i < 10; i++) {
      if (address[i] != 0) {
        return false;
      }
    }
    return address[10] == (byte) 0xff && address[11] == (byte) 0xff;
  }

  private static byte @Nullable [] parse(String s, boolean sloppy) {
    if (s.indexOf(':') >= 0) {
      return parseV6(s, sloppy);
    }
    long v4 = parseV4(s, sloppy);
    return v4 < 0 ? null : new byte[] {(byte) (v4 >>> 24), (byte) (v4 >>> 16), (byte) (v4 >>> 8), (byte) v4};
  }

  /** Whether {@code s} is an IPv4 or IPv6 address. */
  public static boolean isIp(String s) {
    return parse(s) != null;
  }

  /** Whether {@code s} is a dotted IPv4 address. */
  public static boolean isIpv4(String s) {
    return s.indexOf(':') < 0 && parseV4(s, false) >= 0;
  }

  /** Whether {@code s} is an IPv6 address: eight groups, or fewer with one {@code ::}, the last two maybe IPv4. */
  public static boolean isIpv6(String s) {
    return s.indexOf(':') >= 0 && parseV6(s, false) != null;
  }

  /** Whether {@code s} is {@code address/prefix} with a prefix length the address's family allows. */
  public static boolean isCidr(String s) {
    return parseCidr(s, false) != null;
  }

  /**
   * Whether {@code s} is a CIDR by Kubernetes' {@code ParseCIDRSloppy}: its legacy CIDR fields'
   * {@code IsValidCIDRForLegacyField} with {@code StrictIPCIDRValidation} off. As {@link #isCidr}, but the address is
   * read as {@link #parseSloppy} reads it and the prefix length may have leading zeros ({@code 10.0.0.0/016}); bits
   * set past the prefix ({@code 10.0.0.1/8}) are allowed, as by every CIDR check here.
   */
  public static boolean isCidrSloppy(String s) {
    return parseCidr(s, true) != null;
  }

  /**
   * Kubernetes' {@code GetWarningsForCIDR} for a CIDR of a legacy field ({@link #isCidrSloppy}), without its field
   * path, in upstream's order: bits set past the prefix length make the value {@code ambiguous in this context}
   * (naming the subnet and the single address meant instead); leading zeros, in the address or the prefix length,
   * or an IPv4-mapped IPv6 address make it a {@code non-standard CIDR value} (naming the subnet to use); without
   * either, an IPv6 CIDR not in RFC 5952 form should be. Empty for a CIDR in its standard form, and for text that is
   * not a CIDR at all (that is an error, not a warning).
   */
  public static List<String> cidrLegacyWarnings(String s) {
    Cidr sloppy = parseCidr(s, true);
    if (sloppy == null) {
      return List.of();
    }
    List<String> out = new ArrayList<>(2);
    byte[] subnet = sloppy.masked();
    String subnetText = sloppy.subnetText(subnet);
    if (!Arrays.equals(subnet, sloppy.address)) {
      out.add("CIDR value \"" + s + "\" is ambiguous in this context (should be \"" + subnetText + "\" or \""
          + formatNet(sloppy.address) + "/" + sloppy.address.length * 8 + "\"?)");
    }
    Cidr strict = parseCidr(s, false);
    int slash = s.indexOf('/');
    boolean prefixLeadingZero = slash + 2 < s.length() && s.charAt(slash + 1) == '0';
    if (strict == null || prefixLeadingZero || isV4Mapped(strict.address)) {
      out.add("non-standard CIDR value \"" + s + "\" will be considered invalid in a future Kubernetes release: use \""
          + subnetText + "\"");
    }
    if (out.isEmpty() && strict != null && strict.address.length == 16) {
      String canonical = format(strict.address) + "/" + strict.prefix;
      if (!canonical.equals(s)) {
        out.add("IPv6 CIDR value \"" + s + "\" should be in RFC 5952 canonical format (\"" + canonical + "\")");
      }
    }
    return List.copyOf(out);
  }

  /**
   * A parsed CIDR: the address as written (4 or 16 bytes) and the prefix length, at most the address's bits.
   */
  private record Cidr(byte[] address, int prefix) {
    /** The address with the bits past the prefix cleared: Go's {@code ipnet.IP}. */
    byte[] masked() {
      byte[] out = address.clone();
      for (int bit = prefix; bit < out.length * 8; bit++) {
        out[bit / 8] &= (byte) ~(0x80 >>> (bit % 8));
      }
      return out;
    }

    /**
     * Go's {@code IPNet.String()} of the subnet: an IPv4-mapped subnet with a prefix of at least 96 prints as its
     * IPv4 subnet ({@code ::ffff:192.12.2.0/120} is {@code 192.12.2.0/24}).
     */
    String subnetText(byte[] subnet) {
      if (isV4Mapped(subnet) && prefix >= 96) {
        return format(Arrays.copyOfRange(subnet, 12, 16)) + "/" + (prefix - 96);
      }
      return format(subnet) + "/" + prefix;
    }
  }

  /** Go's {@code net.IP.String()}: an IPv4-mapped IPv6 address prints as its IPv4 address. */
  private static String formatNet(byte[] address) {
    return format(isV4Mapped(address) ? Arrays.copyOfRange(address, 12, 16) : address);
  }

  /**
   * {@code address/prefix}, or {@code null}. Strict: the address by {@link #parse}, the prefix one to three ASCII
   * digits; sloppy (Go 1.16's {@code ParseCIDR}, Kubernetes' {@code ParseCIDRSloppy}): the address by
   * {@link #parseSloppy}, the prefix any number of ASCII digits. Either way the prefix is at most the address's bits
   * (128 for an IPv4-mapped IPv6 address, which is IPv6 text).
   */
  private static @Nullable Cidr parseCidr(String s, boolean sloppy) {
    int slash = s.indexOf('/');
    if (slash < 0) {
      return null;
    }
    String prefix = s.substring(slash + 1);
    if (prefix.isEmpty() || (!sloppy && prefix.length() > 3)) {
      return null;
    }
    int n = 0;
    for (int k = 0; k < prefix.length(); k++) {
      char c = prefix.charAt(k);
      if (c < '0' || c > '9') {
        return null;
      }
      n = Math.min(n * 10 + (c - '0'), 1000); // past 128 is out of range, however many digits follow
    }
    byte[] ip = parse(s.substring(0, slash), sloppy);
    return ip == null || n > ip.length * 8 ? null : new Cidr(ip, n);
  }

  /**
   * The canonical text of an address's bytes: a dotted quad for 4 bytes; for 16, RFC 5952 (lower-case hex without
   * leading zeros, the longest run of two or more zero groups, the first of equal runs, written {@code ::}).
   *
   * @throws IllegalArgumentException if {@code address} is not 4 or 16 bytes long
   */
  public static String format(byte[] address) {
    if (address.length == 4) {
      return (address[0] & 255) + "." + (address[1] & 255) + "." + (address[2] & 255) + "." + (address[3] & 255);
    }
    if (address.length != 16) {
      throw new IllegalArgumentException("an IP address has 4 or 16 bytes, not " + address.length);
    }
    int[] g = new int[8];
    for (int i = 0; i < 8; i++) {
      g[i] = ((address[2 * i] & 255) << 8) | (address[2 * i + 1] & 255);
    }
    int bestStart = -1;
    int bestLen = 1;
    for (int i = 0; i < 8; ) {
      if (g[i] == 0) {
        int j = i;
        while (j < 8 && g[j] == 0) {
          j++;
        }
        if (j - i > bestLen) {
          bestStart = i;
          bestLen = j - i;
        }
        i = j;
      } else {
        i++;
      }
    }
    StringBuilder sb = new StringBuilder(39);
    for (int i = 0; i < 8; i++) {
      if (i == bestStart) {
        sb.append("::");
        i += bestLen - 1;
        continue;
      }
      if (sb.length() > 0 && sb.charAt(sb.length() - 1) != ':') {
        sb.append(':');
      }
      sb.append(Integer.toHexString(g[i]));
    }
    return sb.toString();
  }

  /** The canonical text ({@link #format}) of the address {@code s}, or {@code null} when it is not one. */
  public static @Nullable String canonical(String s) {
    byte[] bytes = parse(s);
    return bytes == null ? null : format(bytes);
  }

  /**
   * The special ranges an address falls in, as Kubernetes' {@code ValidateNonSpecialIP} reports them for external
   * IPs and endpoints: unspecified, loopback, link-local unicast, link-local multicast (an IPv4-mapped IPv6 address
   * counts as its IPv4 address). Empty for any other address.
   *
   * @throws IllegalArgumentException if {@code ip} is not an address ({@link #isIpSloppy})
   */
  public static List<String> specialRanges(String ip) {
    byte[] bytes = parseSloppy(ip); // Kubernetes parses these fields sloppily: a strict address parses the same
    if (bytes == null) {
      throw new IllegalArgumentException("\"" + ip + "\" " + INVALID_IP);
    }
    InetAddress a;
    try {
      a = InetAddress.getByAddress(bytes); // maps ::ffff:a.b.c.d to IPv4, as Go's To4 does
    } catch (UnknownHostException e) {
      throw new IllegalStateException("4 or 16 bytes are always an address", e);
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

  /**
   * The dotted quad's value, or -1. Strict: at most three digits without leading zeros, as Go's {@code net.ParseIP}
   * (which refuses them as ambiguous octal); sloppy: any number of decimal digits worth at most 255, as the older
   * parser Kubernetes keeps for its legacy fields.
   */
  private static long parseV4(String s, boolean sloppy) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return -1;
    }
    long v = 0;
    for (String p : parts) {
      if (p.isEmpty() || (!sloppy && (p.length() > 3 || (p.length() > 1 && p.charAt(0) == '0')))) {
        return -1;
      }
      int n = 0;
      for (int k = 0; k < p.length(); k++) {
        char c = p.charAt(k);
        if (c < '0' || c > '9') {
          return -1;
        }
        n = Math.min(n * 10 + (c - '0'), 256); // past 255 is out of range, however many digits follow
      }
      if (n > 255) {
        return -1;
      }
      v = (v << 8) | n;
    }
    return v;
  }

  private static byte @Nullable [] parseV6(String s, boolean sloppy) {
    if (s.length() > MAX_IPV6_LENGTH) {
      return null;
    }
    int dbl = s.indexOf("::");
    if (dbl >= 0 && s.indexOf("::", dbl + 1) >= 0) {
      return null;
    }
    int[] head = groups(dbl < 0 ? s : s.substring(0, dbl), dbl < 0, sloppy);
    int[] tail = dbl < 0 ? new int[0] : groups(s.substring(dbl + 2), true, sloppy);
    if (head == null || tail == null || (dbl < 0 ? head.length != 8 : head.length + tail.length > 7)) {
      return null;
    }
    int[] all = new int[8];
    System.arraycopy(head, 0, all, 0, head.length);
    System.arraycopy(tail, 0, all, 8 - tail.length, tail.length);
    byte[] out = new byte[16];
    for (int i = 0; i < 8; i++) {
      out[2 * i] = (byte) (all[i] >>> 8);
      out[2 * i + 1] = (byte) all[i];
    }
    return out;
  }

  /** The 16-bit groups of one side of {@code ::}; only the last side may end in a dotted quad. */
  private static int @Nullable [] groups(String part, boolean mayEndWithV4, boolean sloppy) {
    if (part.isEmpty()) {
      return new int[0];
    }
    String[] items = part.split(":", -1);
    String last = items[items.length - 1];
    long v4 = -1;
    if (last.indexOf('.') >= 0) {
      v4 = mayEndWithV4 ? parseV4(last, sloppy) : -1;
      if (v4 < 0) {
        return null;
      }
    }
    int n = items.length - (v4 < 0 ? 0 : 1);
    int[] out = new int[n + (v4 < 0 ? 0 : 2)];
    for (int i = 0; i < n; i++) {
      String g = items[i];
      if (g.isEmpty() || g.length() > 4) {
        return null;
      }
      int val = 0;
      for (int k = 0; k < g.length(); k++) {
        char c = g.charAt(k);
        // ASCII only, as Go's net.ParseIP: Character.digit takes the digits of every script
        int d = c < 128 ? Character.digit(c, 16) : -1;
        if (d < 0) {
          return null;
        }
        val = val * 16 + d;
      }
      out[i] = val;
    }
    if (v4 >= 0) {
      out[n] = (int) (v4 >>> 16);
      out[n + 1] = (int) (v4 & 0xffff);
    }
    return out;
  }
}
