package io.fleetkit.networking.ipam;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.api.net.IpText;
import java.math.BigInteger;
import java.util.Objects;

/**
 * A CIDR block: {@code network/prefixLength}. Parsing is "sloppy" as Kubernetes' {@code ParseCIDRSloppy}: host bits
 * in the text are cleared ({@code 127.123.3.0/16} is {@code 127.123.0.0/16}).
 */
public record IpPrefix(IpAddress network, int prefixLength) {
  public IpPrefix {
    Objects.requireNonNull(network, "network");
    if (prefixLength < 0 || prefixLength > network.bits()) {
      throw new IllegalArgumentException("prefix length " + prefixLength + " is out of range 0.." + network.bits());
    }
    BigInteger mask = hostMask(network.bits(), prefixLength);
    if (network.value().and(mask).signum() != 0) {
      network = new IpAddress(network.family(), network.value().andNot(mask));
    }
  }

  /**
   * Parses {@code address/length}.
   *
   * @throws IllegalArgumentException naming the text when it is not a CIDR
   */
  public static IpPrefix parse(String cidr) {
    if (!IpText.isCidr(cidr)) { // core-api's one CIDR grammar
      throw new IllegalArgumentException("\"" + cidr + "\" is not a valid CIDR (address/prefix-length)");
    }
    int slash = cidr.indexOf('/');
    return new IpPrefix(IpAddress.parse(cidr.substring(0, slash)), Integer.parseInt(cidr.substring(slash + 1)));
  }

  /**
   * Parses the text of a legacy CIDR field (a node's {@code spec.podCIDRs}) as Kubernetes' {@code ParseCIDRSloppy}
   * reads it ({@link IpText#isCidrSloppy}): the address by {@link IpAddress#parseSloppy}, the prefix length with any
   * leading zeros. An IPv4-mapped IPv6 subnet of prefix 96 or more is its IPv4 subnet, as Go prints it.
   *
   * @throws IllegalArgumentException naming the text when it is not a CIDR, or is an IPv4-mapped one shorter than
   *     /96 (no IPv4 subnet)
   */
  public static IpPrefix parseSloppy(String cidr) {
    if (!IpText.isCidrSloppy(cidr)) {
      throw new IllegalArgumentException("\"" + cidr + "\" is not a valid CIDR (address/prefix-length)");
    }
    int slash = cidr.indexOf('/');
    String address = cidr.substring(0, slash);
    int prefix = Integer.parseInt(cidr.substring(slash + 1));
    IpAddress network = IpAddress.parseSloppy(address);
    if (network.family() == IPFamily.IPv4 && address.indexOf(':') >= 0) { // IPv4-mapped: bits of the IPv6 form
      prefix -= 96;
      if (prefix < 0) {
        throw new IllegalArgumentException("\"" + cidr + "\" is an IPv4-mapped CIDR shorter than /96");
      }
    }
    return new IpPrefix(network, prefix);
  }

  static BigInteger hostMask(int bits, int prefix) {
    return BigInteger.ONE.shiftLeft(bits - prefix).subtract(BigInteger.ONE);
  }

  public IPFamily family() {
    return network.family();
  }

  /** Number of addresses in the block, 2^(bits - prefixLength). */
  public BigInteger size() {
    return BigInteger.ONE.shiftLeft(network.bits() - prefixLength);
  }

  /** Host bits: address bits not covered by the prefix. */
  public int hostBits() {
    return network.bits() - prefixLength;
  }

  public boolean contains(IpAddress a) {
    return a.family() == family() && a.value().shiftRight(hostBits()).equals(network.value().shiftRight(hostBits()));
  }

  /** Whether {@code other} lies entirely inside this block. */
  public boolean contains(IpPrefix other) {
    return other.family() == family() && other.prefixLength >= prefixLength && contains(other.network);
  }

  /** Whether the two blocks share an address. */
  public boolean overlaps(IpPrefix other) {
    return contains(other) || other.contains(this);
  }

  /** The address at {@code offset} from the network address. */
  public IpAddress address(BigInteger offset) {
    return network.plus(offset);
  }

  /** The last address of the block (the broadcast address for IPv4). */
  public IpAddress last() {
    return network.plus(size().subtract(BigInteger.ONE));
  }

  @Override
  public String toString() {
    return network + "/" + prefixLength;
  }
}
