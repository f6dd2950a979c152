package io.fleetkit.networking.ipam;

import io.fleetkit.api.core.IPFamily;
import io.fleetkit.networking.ipam.internal.BandedBitmap;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Cluster IPs from a service CIDR, as the apiserver's bitmap allocator ({@code ipallocator/bitmap.go}): the network
 * address is never handed out, nor the broadcast address of an IPv4 range; IPv6 ranges are capped at 65536
 * addresses. The first {@link #staticBandSize()} usable addresses are the static band (KEP-3070) that dynamic
 * allocation uses only when the rest is full. The first usable address ({@link #first()}) is the one the
 * {@code kubernetes} Service gets. Thread-safe.
 */
public final class ServiceIpRange {
  /** The service CIDR Kubernetes uses when none is configured. */
  public static final String DEFAULT_CIDR = "10.0.0.0/24";
  private static final BigInteger IPV6_CAP = BigInteger.valueOf(65536);

  private final IpPrefix cidr;
  private final IpAddress base;
  private final BandedBitmap bitmap;

  /**
   * A range over any CIDR, without the apiserver's flag checks (see {@link #of} for those).
   *
   * @param random the source of start points for dynamic allocation (seed it for reproducible runs)
   * @throws IllegalArgumentException when the CIDR holds more than 2^31 usable addresses
   */
  public ServiceIpRange(IpPrefix cidr, Random random) {
    this.cidr = cidr;
    BigInteger max = cidr.size();
    if (cidr.family() == IPFamily.IPv6) {
      max = max.min(IPV6_CAP);
    } else {
      max = max.subtract(BigInteger.ONE);
    }
    max = max.subtract(BigInteger.ONE).max(BigInteger.ZERO);
    this.base = cidr.network().plus(1);
    long cidrSize = cidr.size().min(BigInteger.valueOf(Long.MAX_VALUE)).longValue();
    if (max.bitLength() > 31) {
      throw new IllegalArgumentException("service CIDR " + cidr + " is too large for a bitmap allocator");
    }
    this.bitmap = new BandedBitmap(max.intValue(), Math.min(BandedBitmap.serviceIpOffset(cidrSize), max.intValue()),
        random);
  }

  /**
   * Checks a service CIDR as the apiserver does ({@code --service-cluster-ip-range}): at least 8 addresses; IPv4 at
   * most 20 host bits (mask /12 or longer), IPv6 at most 20 host bits for the bitmap allocator (/108 or longer).
   *
   * @throws IllegalArgumentException naming the flag, the value and the rule
   */
  public static ServiceIpRange of(String cidr, Random random) {
    IpPrefix p;
    try {
      p = IpPrefix.parse(cidr);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("service CIDR: " + e.getMessage(), e);
    }
    if (p.hostBits() > 20) {
      throw new IllegalArgumentException("service CIDR \"" + cidr + "\" is too large; the range must have at most"
          + " 20 host bits (" + (p.family() == IPFamily.IPv4 ? "/12" : "/108") + " or smaller)");
    }
    if (p.hostBits() < 3) {
      throw new IllegalArgumentException("service CIDR \"" + cidr + "\" is too small; it must hold at least 8"
          + " addresses");
    }
    return new ServiceIpRange(p, random);
  }

  public IpPrefix cidr() {
    return cidr;
  }

  public IPFamily family() {
    return cidr.family();
  }

  /** The first usable address: the {@code kubernetes} Service's cluster IP (e.g. 10.96.0.1 for 10.96.0.0/12). */
  public IpAddress first() {
    return base;
  }

  /** Size of the static band: addresses {@code first() .. first() + staticBandSize() - 1}. */
  public int staticBandSize() {
    return bitmap.offset();
  }

  /**
   * Takes {@code ip}.
   *
   * @throws AllocationException {@code NOT_IN_RANGE} or {@code ALREADY_ALLOCATED}
   */
  public synchronized void allocate(IpAddress ip) {
    int i = index(ip);
    if (i < 0) {
      throw new AllocationException(AllocationException.Reason.NOT_IN_RANGE, "the provided IP (" + ip
          + ") is not in the valid range. The range of valid IPs is " + cidr);
    }
    if (!bitmap.allocate(i)) {
      throw new AllocationException(AllocationException.Reason.ALREADY_ALLOCATED, "provided IP is already allocated");
    }
  }

  /**
   * Takes a free address: random in the dynamic band, else in the static band.
   *
   * @throws AllocationException {@code FULL} ("range is full")
   */
  public synchronized IpAddress allocateNext() {
    int i = bitmap.allocateNext();
    if (i < 0) {
      throw new AllocationException(AllocationException.Reason.FULL, "range is full");
    }
    return base.plus(i);
  }

  /** Frees {@code ip}; an address not allocated or not in range is ignored. */
  public synchronized void release(IpAddress ip) {
    int i = index(ip);
    if (i >= 0) {
      bitmap.release(i);
    }
  }

  public synchronized boolean has(IpAddress ip) {
    int i = index(ip);
    return i >= 0 && bitmap.has(i);
  }

  public synchronized int free() {
    return bitmap.free();
  }

  public synchronized int used() {
    return bitmap.used();
  }

  /** Every allocated address, ascending. */
  public synchronized List<IpAddress> allocated() {
    List<IpAddress> out = new ArrayList<>(bitmap.used());
    bitmap.forEach(i -> out.add(base.plus(i)));
    return out;
  }

  private int index(IpAddress ip) {
    if (ip.family() != cidr.family()) {
      return -1;
    }
    BigInteger d = ip.value().subtract(base.value());
    if (d.signum() < 0 || d.compareTo(BigInteger.valueOf(bitmap.size())) >= 0) {
      return -1;
    }
    return d.intValue();
  }

  @Override
  public String toString() {
    return "ServiceIpRange " + cidr;
  }
}
