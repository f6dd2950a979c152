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

  /**
   * As {@link #tryParse}, for the text of a legacy IP field (a Service's {@code clusterIPs}, {@code loadBalancerIP}):
   * read as Kubernetes' {@code ParseIPSloppy} reads it ({@link IpText#parseSloppy}: an IPv4 octet may have leading
   * zeros, read as decimal), an IPv4-mapped IPv6 address as its IPv4 address, as upstream's allocators take it.
   */
  public static @org.jspecify.annotations.Nullable IpAddress tryParseSloppy(String text) {
    byte[] bytes = IpText.parseSloppy(text);
    if (bytes == null) {
      return null;
    }
    if (IpText.isV4Mapped(bytes)) {
      bytes = java.util.Arrays.copyOfRange(bytes, 12, 16);
    }
    return new IpAddress(bytes.length == 4 ? IPFamily.IPv4 : IPFamily.IPv6, new BigInteger(1, bytes));
  }

  /**
   * {@link #tryParseSloppy}, refusing text that is not an address.
   *
   * @throws IllegalArgumentException naming the text when it is not an IP address
   */
  public static IpAddress parseSloppy(String text) {
    IpAddress a = tryParseSloppy(text);
    if (a == null) {
      throw new IllegalArgumentException("\"" + text + "\" is not a valid IP address");
    }
    return a;
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

  /** The canonical text: {@link IpText#format}. */
  @Override
  public String toString() {
    byte[] raw = value.toByteArray(); // big-endian, maybe a leading sign byte or fewer bytes than the address has
    byte[] bytes = new byte[bits() / 8];
    int n = Math.min(raw.length, bytes.length);
    System.arraycopy(raw, raw.length - n, bytes, bytes.length - n, n);
    return IpText.format(bytes);
  }
}
