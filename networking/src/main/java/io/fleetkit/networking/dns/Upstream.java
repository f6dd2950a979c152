package io.fleetkit.networking.dns;

import io.fleetkit.api.net.IpText;
import io.fleetkit.networking.ipam.IpAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Objects;

/**
 * A resolver that {@link Forwarder} sends questions to: an IP address and a port. Written as CoreDNS's
 * {@code forward} plugin reads its {@code TO} addresses: {@code 10.0.0.53}, {@code 10.0.0.53:5353}, {@code ::1},
 * {@code [2001:db8::53]:53}, optionally prefixed {@code dns://}; the port defaults to 53. Host names are not resolved.
 *
 * @param address the IP address
 * @param port 1..65535
 */
public record Upstream(String address, int port) {
  /** The DNS port. */
  public static final int DEFAULT_PORT = 53;
  private static final String USAGE = "must be IP, IP:PORT or [IPv6]:PORT (a host name is not resolved)";

  public Upstream {
    Objects.requireNonNull(address, "address");
    if (!IpText.isIp(address)) {
      throw new IllegalArgumentException("upstream address \"" + address + "\" " + IpText.INVALID_IP);
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("upstream " + address + " port " + port + " must be between 1 and 65535");
    }
  }

  /**
   * The upstream {@code text} names (surrounding white space ignored).
   *
   * @throws IllegalArgumentException when it is not an address with an optional port, naming the text and the forms
   */
  public static Upstream parse(String text) {
    Objects.requireNonNull(text, "text");
    String s = text.strip();
    if (s.startsWith("dns://")) {
      s = s.substring("dns://".length());
    } else if (s.contains("://")) {
      throw new IllegalArgumentException("upstream \"" + text + "\": only plain DNS is forwarded (dns:// or no"
          + " scheme), not " + s.substring(0, s.indexOf("://") + 3));
    }
    String host = s;
    String port = null;
    if (s.startsWith("[")) {
      int close = s.indexOf(']');
      if (close < 0 || (close != s.length() - 1 && s.charAt(close + 1) != ':')) {
        throw new IllegalArgumentException("upstream \"" + text + "\" " + USAGE);
      }
      host = s.substring(1, close);
      port = close == s.length() - 1 ? null : s.substring(close + 2);
    } else if (s.indexOf(':') >= 0 && s.indexOf(':') == s.lastIndexOf(':')) {
      host = s.substring(0, s.indexOf(':'));
      port = s.substring(s.indexOf(':') + 1);
    }
    if (!IpText.isIp(host)) {
      throw new IllegalArgumentException("upstream \"" + text + "\" " + USAGE);
    }
    int p = DEFAULT_PORT;
    if (port != null) {
      p = port.isEmpty() || port.length() > 5 || !port.chars().allMatch(c -> c >= '0' && c <= '9') ? -1
          : Integer.parseInt(port);
      if (p < 1 || p > 65535) {
        throw new IllegalArgumentException("upstream \"" + text + "\": port \"" + port + "\" must be a number"
            + " between 1 and 65535");
      }
    }
    return new Upstream(IpAddress.parse(host).toString(), p);
  }

  /** The socket address to send to. */
  public InetSocketAddress socketAddress() {
    try {
      return new InetSocketAddress(InetAddress.getByAddress(Objects.requireNonNull(IpText.parse(address))), port);
    } catch (UnknownHostException e) {
      throw new IllegalStateException("upstream address " + address + ": " + e.getMessage(), e);
    }
  }

  /** {@code address:port}, IPv6 in brackets. */
  @Override
  public String toString() {
    return (address.indexOf(':') >= 0 ? "[" + address + "]" : address) + ":" + port;
  }
}
