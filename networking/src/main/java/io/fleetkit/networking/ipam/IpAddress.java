package io.fleetkit.networking.ipam;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.net.IpText;
import java.math.BigInteger;
import java.util.Objects;

/**
 * An IPv4 or IPv6 address as a number. {@link #parse} accepts only literals (it never resolves names), with the one
 * grammar core-api's {@link IpText} defines for every "is this text an IP" check;
 * {@link #toString} prints the canonical form (dotted quad; RFC 5952 for IPv6: lower case, longest zero run
 * compressed).
 */
public record IpAddress(IPFamily family, BigInteger value) implements Comparable<IpAddress> {
  static final BigInteger MAX_V4 = BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE);
  static final BigInteger MAX_V6 = BigInteger.ONE.shiftLeft(128).subtract(BigInteger.ONE);

  public IpAddress {
    Objects.requireNonNull(family, "family");
    Objects.requireNonNull(value, "value");
    if (value.signum() < 0 || value.compareTo(family == IPFamily.IPv4 ? MAX_V4 : MAX_V6) > 0) {
      throw new IllegalArgumentException("address value " + value + " is out of range for " + family);
    }
  }

  /** Bits in an address of this family. */
  public int bits() {
    return family == IPFamily.IPv4 ? 32 : 128;
  }

  /**
   * Parses an IPv4 dotted quad or an IPv6 literal (with {@code ::} and an optional trailing dotted quad).
   *
   * @throws IllegalArgumentException naming the text when it is not an IP address
   */
  public static IpAddress parse(String text) {
    IpAddress a = tryParse(text);
    if (a == null) {
      throw new IllegalArgumentException("\"" + text + "\" is not a valid IP address");
    }
    return a;
  }

  /** {@link #parse}, or {@code null} for text that is not an IP address (core-api's {@link IpText#parse} grammar). */
  public static @org.jspecify.annotations.Nullable IpAddress tryParse(String text) {
    byte[] bytes = IpText.parse(text);
    if (bytes == null) {
      return null;
    }
    return new IpAddress(bytes.length == 4 ? IPFamily.IPv4 : IPFamily.IPv6, new BigInteger(1, bytes));
  }

  /** Whether {@code text} is an IPv4 or IPv6 literal: {@link IpText#isIp}. */
  public static boolean isValid(String text) {
    return IpText.isIp(text);
  }

  /** The address {@code delta} after this one (negative for before). */
  public IpAddress plus(BigInteger delta) {
    return new IpAddress(family, value.add(delta));
  }

  public IpAddress plus(long delta) {
    return plus(BigInteger.valueOf(delta));
  }

  @Override
  public int compareTo(IpAddress o) {
    int c = family.compareTo(o.family);
    return c != 0 ? c : value.compareTo(o.value);
  }

  @Override
  public String toString() {
    if (family == IPFamily.IPv4) {
      long v = value.longValue();
      return ((v >> 24) & 255) + "." + ((v >> 16) & 255) + "." + ((v >> 8) & 255) + "." + (v & 255);
    }
    int[] g = new int[8];
    BigInteger v = value;
    for (int i = 7; i >= 0; i--) {
      g[i] = v.intValue() & 0xffff;
      v = v.shiftRight(16);
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
}
