package io.fleetkit.networking.ipam.internal;

import java.util.BitSet;
import java.util.Random;
import java.util.function.IntConsumer;

/**
 * The apiserver's bitmap allocator with a static band ({@code allocator/bitmap.go},
 * {@code NewAllocationMapWithOffset}, KEP-3070): items {@code [0, offset)} form the lower band, preferred for
 * values a user chooses; {@link #allocateNext} picks a random start in the upper band, scans forward with
 * wrap-around inside it, and only when the upper band is full does the same in the lower band. Not thread-safe.
 */
public final class BandedBitmap {
  private final int size;
  private final int offset;
  private final BitSet used;
  private final Random random;
  private int count;

  public BandedBitmap(int size, int offset, Random random) {
    if (size < 0 || offset < 0 || offset > size) {
      throw new IllegalArgumentException("bitmap size " + size + " and offset " + offset + " are inconsistent");
    }
    this.size = size;
    this.offset = offset;
    this.used = new BitSet(size);
    this.random = random;
  }

  public int size() {
    return size;
  }

  public int offset() {
    return offset;
  }

  /** Marks {@code index}; false when it was already taken. */
  public boolean allocate(int index) {
    checkIndex(index);
    if (used.get(index)) {
      return false;
    }
    used.set(index);
    count++;
    return true;
  }

  /** A free index, now taken, or -1 when full. */
  public int allocateNext() {
    if (count >= size) {
      return -1;
    }
    int i = scan(offset, size - offset);
    if (i < 0) {
      i = scan(0, offset);
    }
    if (i >= 0) {
      used.set(i);
      count++;
    }
    return i;
  }

  private int scan(int from, int length) {
    if (length <= 0) {
      return -1;
    }
    int start = random.nextInt(length);
    for (int k = 0; k < length; k++) {
      int i = from + (start + k) % length;
      if (!used.get(i)) {
        return i;
      }
    }
    return -1;
  }

  /** Frees {@code index}; out-of-range or unallocated indexes are ignored, as upstream. */
  public void release(int index) {
    if (index >= 0 && index < size && used.get(index)) {
      used.clear(index);
      count--;
    }
  }

  public boolean has(int index) {
    return index >= 0 && index < size && used.get(index);
  }

  public int used() {
    return count;
  }

  public int free() {
    return size - count;
  }

  public void forEach(IntConsumer action) {
    for (int i = used.nextSetBit(0); i >= 0; i = used.nextSetBit(i + 1)) {
      action.accept(i);
    }
  }

  private void checkIndex(int index) {
    if (index < 0 || index >= size) {
      throw new IndexOutOfBoundsException("index " + index + " outside 0.." + (size - 1));
    }
  }

  /** Upstream's {@code calculateRangeOffset} for service IPs: min(max(16, size/16), 256), 0 when size <= 16. */
  public static int serviceIpOffset(long rangeSize) {
    return bandOffset(rangeSize, 16, 256);
  }

  /** Upstream's {@code calculateRangeOffset} for node ports: min(max(16, size/32), 128), 0 when size <= 16. */
  public static int nodePortOffset(long rangeSize) {
    return bandOffset(rangeSize, 32, 128);
  }

  private static int bandOffset(long size, int divisor, int max) {
    if (size <= 16) {
      return 0;
    }
    return (int) Math.min(Math.max(16, size / divisor), max);
  }
}
