package io.fleetkit.scheduler.internal;

import io.fleetkit.api.framework.NodeInfo;

/**
 * Early reads of the node views Filter and Score are about to visit. The views are scattered over the heap and at
 * thousands of nodes per cycle each first touch is a cache miss; reading the next nodes' hot fields {@link #DISTANCE}
 * nodes ahead lets the CPU overlap those misses with the current node's plugin calls (Java has no prefetch
 * instruction). A loop sums what it touched into a field of its owner that is never read, so that the JIT keeps the
 * reads.
 */
final class Prefetch {
  /** How many nodes ahead the loops read. */
  static final int DISTANCE = 4;

  private Prefetch() {}

  /** Reads {@code node}'s hot fields. */
  static int touch(NodeInfo node) {
    return node.podCount() + (int) node.requestedMilliCpu();
  }
}
