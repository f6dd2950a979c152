package io.fleetkit.networking.ipam;

import io.fleetkit.networking.ipam.internal.BandedBitmap;
import java.util.Random;

/**
 * Node ports from a range ({@code --service-node-port-range}, default {@value #DEFAULT_BASE}-32767), as the
 * apiserver's port allocator ({@code portallocator/allocator.go}): the first {@link #staticBandSize()} ports
 * (min(max(16, size/32), 128), 86 for the default range) are preferred for ports users choose; dynamic
 * allocation takes a random free port above them first. Thread-safe.
 */
public final class PortRange {
  public static final int DEFAULT_BASE = 30000;
  public static final int DEFAULT_SIZE = 2768;

  private final int base;
  private final int size;
  private final BandedBitmap bitmap;

  /**
   * @throws IllegalArgumentException when the range leaves 1..65535 or is empty
   */
  public PortRange(int base, int size, Random random) {
    if (base < 1 || size < 1 || (long) base + size - 1 > 65535) {
      throw new IllegalArgumentException("node port range " + base + "-" + ((long) base + size - 1)
          + " must be a non-empty range inside 1-65535");
    }
    this.base = base;
    this.size = size;
    this.bitmap = new BandedBitmap(size, BandedBitmap.nodePortOffset(size), random);
  }

  /** The default range 30000-32767. */
  public static PortRange defaultRange(Random random) {
    return new PortRange(DEFAULT_BASE, DEFAULT_SIZE, random);
  }

  public int base() {
    return base;
  }

  public int size() {
    return size;
  }

  /** Upstream's offset: min(max(16, size/32), 128), 0 when size <= 16. */
  public int staticBandSize() {
    return bitmap.offset();
  }

  /**
   * @throws AllocationException {@code NOT_IN_RANGE} or {@code ALREADY_ALLOCATED}
   */
  public synchronized void allocate(int port) {
    if (port < base || port >= base + size) {
      throw new AllocationException(AllocationException.Reason.NOT_IN_RANGE,
          "provided port is not in the valid range. The range of valid ports is " + this);
    }
    if (!bitmap.allocate(port - base)) {
      throw new AllocationException(AllocationException.Reason.ALREADY_ALLOCATED,
          "provided port is already allocated");
    }
  }

  /**
   * @throws AllocationException {@code FULL} ("range is full")
   */
  public synchronized int allocateNext() {
    int i = bitmap.allocateNext();
    if (i < 0) {
      throw new AllocationException(AllocationException.Reason.FULL, "range is full");
    }
    return base + i;
  }

  /** Frees {@code port}; a port not allocated or not in range is ignored. */
  public synchronized void release(int port) {
    if (port >= base && port < base + size) {
      bitmap.release(port - base);
    }
  }

  public synchronized boolean has(int port) {
    return port >= base && port < base + size && bitmap.has(port - base);
  }

  public synchronized int free() {
    return bitmap.free();
  }

  public synchronized int used() {
    return bitmap.used();
  }

  @Override
  public String toString() {
    return base + "-" + (base + size - 1);
  }
}
