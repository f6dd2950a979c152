package io.fleetkit.autoscale.cluster;

import java.util.Objects;

/**
 * One pool's part of a scale-up (upstream's {@code nodegroupset.ScaleUpInfo}): it grows from {@code currentSize} to
 * {@code newSize} nodes, within {@code maxSize}.
 *
 * @param pool the NodePool's name
 * @param currentSize its nodes before the scale-up
 * @param newSize its nodes after it, more than {@code currentSize} and at most {@code maxSize}
 * @param maxSize the pool's {@code maxSize}
 */
public record PoolScaleUp(String pool, int currentSize, int newSize, int maxSize) {
  public PoolScaleUp {
    Objects.requireNonNull(pool, "pool");
    if (currentSize < 0 || newSize <= currentSize || newSize > maxSize) {
      throw new IllegalArgumentException("scale-up of pool " + pool + ": sizes " + currentSize + " -> " + newSize
          + " must grow and stay within maxSize " + maxSize);
    }
  }

  /** The nodes this scale-up adds. */
  public int delta() {
    return newSize - currentSize;
  }
}
