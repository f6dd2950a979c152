package io.fleetkit.networking.ipam;

import io.fleetkit.api.core.IPFamily;
import java.math.BigInteger;
import java.util.BitSet;

/**
 * Pod CIDRs for nodes, as kube-controller-manager's node IPAM ({@code nodeipam/ipam/cidrset/cidr_set.go}): the
 * cluster CIDR is cut into blocks of {@code --node-cidr-mask-size} (default {@value #DEFAULT_IPV4_MASK} for IPv4,
 * {@value #DEFAULT_IPV6_MASK} for IPv6), 2^(node mask - cluster mask) of them. Allocation is sequential from a
 * rotating next-candidate index (first free block wins, wrap-around), not random. {@link #occupy} and
 * {@link #release} take any CIDR inside the cluster CIDR and mark every block it overlaps. Thread-safe.
 */
public final class CidrSet {
  public static final int DEFAULT_IPV4_MASK = 24;
  public static final int DEFAULT_IPV6_MASK = 64;
  /** Upstream's {@code clusterSubnetMaxDiff}: an IPv6 node mask at most 16 bits longer than the cluster mask. */
  static final int MAX_IPV6_DIFF = 16;

  private final IpPrefix clusterCidr;
  private final int nodeMaskSize;
  private final int maxCidrs;
  private final BitSet used;
  private int allocated;
  private int nextCandidate;

  /**
   * @throws IllegalArgumentException when the node mask is shorter than the cluster mask or longer than the address,
   *     when an IPv6 node mask is more than 16 bits longer than the cluster mask, or (IPv4) when the set would have
   *     more than 2^30 blocks
   */
  public CidrSet(IpPrefix clusterCidr, int nodeMaskSize) {
    int clusterMask = clusterCidr.prefixLength();
    if (nodeMaskSize < clusterMask || nodeMaskSize > clusterCidr.network().bits()) {
      throw new IllegalArgumentException("node CIDR mask size " + nodeMaskSize + " must be between the cluster CIDR's"
          + " mask " + clusterMask + " and " + clusterCidr.network().bits() + " (cluster CIDR " + clusterCidr + ")");
    }
    if (clusterCidr.family() == IPFamily.IPv6 && nodeMaskSize - clusterMask > MAX_IPV6_DIFF) {
      throw new IllegalArgumentException("New CIDR set failed; the node CIDR size is too big: node mask /"
          + nodeMaskSize + " is more than " + MAX_IPV6_DIFF + " bits longer than the cluster CIDR " + clusterCidr);
    }
    if (nodeMaskSize - clusterMask > 30) {
      throw new IllegalArgumentException("node CIDR mask size " + nodeMaskSize + " cuts cluster CIDR " + clusterCidr
          + " into more than 2^30 blocks");
    }
    this.clusterCidr = clusterCidr;
    this.nodeMaskSize = nodeMaskSize;
    this.maxCidrs = 1 << (nodeMaskSize - clusterMask);
    this.used = new BitSet(maxCidrs);
  }

  public IpPrefix clusterCidr() {
    return clusterCidr;
  }

  public int nodeMaskSize() {
    return nodeMaskSize;
  }

  /** How many node blocks the cluster CIDR holds. */
  public int capacity() {
    return maxCidrs;
  }

  public synchronized int allocatedCount() {
    return allocated;
  }

  /** The block at {@code index} (upstream's {@code indexToCIDRBlock}). */
  public IpPrefix block(int index) {
    if (index < 0 || index >= maxCidrs) {
      throw new IndexOutOfBoundsException("block index " + index + " outside 0.." + (maxCidrs - 1));
    }
    BigInteger offset = BigInteger.valueOf(index).shiftLeft(clusterCidr.network().bits() - nodeMaskSize);
    return new IpPrefix(clusterCidr.network().plus(offset), nodeMaskSize);
  }

  /**
   * The next free block, now allocated.
   *
   * @throws AllocationException {@code FULL} when every block is taken
   */
  public synchronized IpPrefix allocateNext() {
    if (allocated == maxCidrs) {
      throw new AllocationException(AllocationException.Reason.FULL, "CIDR allocation failed; there are no remaining"
          + " CIDRs left to allocate in the accepted range (cluster CIDR " + clusterCidr + ")");
    }
    int candidate = nextCandidate;
    for (int i = 0; i < maxCidrs; i++) {
      if (!used.get(candidate)) {
        used.set(candidate);
        allocated++;
        nextCandidate = (candidate + 1) % maxCidrs;
        return block(candidate);
      }
      candidate = (candidate + 1) % maxCidrs;
    }
    throw new IllegalStateException("CidrSet " + clusterCidr + ": count says free, bitmap says full");
  }

  /**
   * Marks every block {@code cidr} overlaps as used.
   *
   * @throws AllocationException {@code NOT_IN_RANGE} when {@code cidr} is outside the cluster CIDR
   */
  public synchronized void occupy(IpPrefix cidr) {
    int[] r = range(cidr);
    for (int i = r[0]; i <= r[1]; i++) {
      if (!used.get(i)) {
        used.set(i);
        allocated++;
      }
    }
  }

  /**
   * Marks every block {@code cidr} overlaps as free.
   *
   * @throws AllocationException {@code NOT_IN_RANGE} when {@code cidr} is outside the cluster CIDR
   */
  public synchronized void release(IpPrefix cidr) {
    int[] r = range(cidr);
    for (int i = r[0]; i <= r[1]; i++) {
      if (used.get(i)) {
        used.clear(i);
        allocated--;
      }
    }
  }

  public synchronized boolean isAllocated(IpPrefix cidr) {
    int[] r = range(cidr);
    return used.get(r[0]);
  }

  /** The block index holding {@code cidr}'s network address (upstream's {@code getIndexForCIDR}). */
  public int indexOf(IpPrefix cidr) {
    if (!clusterCidr.contains(cidr.network())) {
      throw new AllocationException(AllocationException.Reason.NOT_IN_RANGE, "cidr " + cidr
          + " is out the range of cluster cidr " + clusterCidr);
    }
    BigInteger d = cidr.network().value().subtract(clusterCidr.network().value());
    return d.shiftRight(clusterCidr.network().bits() - nodeMaskSize).intValueExact();
  }

  private int[] range(IpPrefix cidr) {
    if (cidr.family() != clusterCidr.family() || !cidr.overlaps(clusterCidr)) {
      throw new AllocationException(AllocationException.Reason.NOT_IN_RANGE, "cidr " + cidr
          + " is out the range of cluster cidr " + clusterCidr);
    }
    IpPrefix inside = clusterCidr.contains(cidr) ? cidr : clusterCidr;
    int begin = indexOf(inside);
    int end = indexOf(new IpPrefix(inside.last(), inside.network().bits()));
    return new int[] {begin, end};
  }

  @Override
  public String toString() {
    return "CidrSet " + clusterCidr + " /" + nodeMaskSize;
  }
}
