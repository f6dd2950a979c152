package io.fleetkit.networking.ipam;

import io.fleetkit.api.core.IPFamily;
import java.math.BigInteger;
import java.util.Objects;

/**
 * An IPv4 or IPv6 address as a number. {@link #parse} accepts only literals (it never resolves names);
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

  /** {@link #parse}, or {@code null} for text that is not an IP address. */
  public static @org.jspecify.annotations.Nullable IpAddress tryParse(String text) {
    if (text.indexOf(':') >= 0) {
      BigInteger v = parseV6(text);
      return v == null ? null : new IpAddress(IPFamily.IPv6, v);
    }
    Long v4 = parseV4(text);
    return v4 == null ? null : new IpAddress(IPFamily.IPv4, BigInteger.valueOf(v4));
  }

  /** Whether {@code text} is an IPv4 or IPv6 literal. */
  public static boolean isValid(String text) {
    return tryParse(text) != null;
  }

  private static @org.jspecify.annotations.Nullable Long parseV4(String s) {
    String[] parts = s.split("\\.", -1);
    if (parts.length != 4) {
      return null;
    }
    long v = 0;
    for (String p : parts) {
      if (p.isEmpty() || p.length() > 3) {
        return null;
      }
      for (int k = 0; k < p.length(); k++) {
        char c = p.charAt(k);
        if (c < '0' || c > '9') {
          return null;
        }
      }
      if (p.length() > 1 && p.charAt(0) == '0') {
        return null; // Go's net.ParseIP refuses leading zeros (ambiguous octal)
      }
      int n = Integer.parseInt(p);
      if (n > 255) {
        return null;
      }
      v = (v << 8) | n;
    }
    return v;
  }

  private static @org.jspecify.annotations.Nullable BigInteger parseV6(String s) {
    if (s.length() > 45 || s.isEmpty()) {
      return null;
    }
    int[] groups = new int[8];
    String head = s;
    String tail = "";
    int dbl = s.indexOf("::");
    if (dbl >= 0) {
      if (s.indexOf("::", dbl + 1) >= 0) {
        return null;
      }
      head = s.substring(0, dbl);
      tail = s.substring(dbl + 2);
    }
    int[] h = groups(head, dbl < 0);
    int[] t = groups(tail, true);
    if (h == null || t == null) {
      return null;
    }
    if (dbl < 0) {
      if (h.length != 8) {
        return null;
      }
      System.arraycopy(h, 0, groups, 0, 8);
    } else {
      if (h.length + t.length > 7) {
        return null;
      }
      System.arraycopy(h, 0, groups, 0, h.length);
      System.arraycopy(t, 0, groups, 8 - t.length, t.length);
    }
    BigInteger v = BigInteger.ZERO;
    for (int g : groups) {
      v = v.shiftLeft(16).or(BigInteger.valueOf(g));
    }
    return v;
  }

  /** The 16-bit groups of one side of {@code ::}; only the last side may end in a dotted quad. */
  private static int @org.jspecify.annotations.Nullable [] groups(String part, boolean mayEndWithV4) {
    if (part.isEmpty()) {
      return new int[0];
    }
    String[] items = part.split(":", -1);
    int extra = 0;
    String last = items[items.length - 1];
    Long v4 = null;
    if (last.indexOf('.') >= 0) {
      if (!mayEndWithV4) {
        return null;
      }
      v4 = parseV4(last);
      if (v4 == null) {
        return null;
      }
      extra = 1;
    }
    int n = items.length - (v4 == null ? 0 : 1);
    int[] out = new int[n + extra * 2];
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
    if (v4 != null) {
      out[n] = (int) (v4 >>> 16);
      out[n + 1] = (int) (v4 & 0xffff);
    }
    return out;
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
