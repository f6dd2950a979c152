package io.fleetkit.scheduler.plugins.gpu;

/**
 * Fully free devices held for whole-GPU pods, the rule {@link GpuPolicy#RESERVING_GAP_FILL} adds to
 * {@link GpuAdaptiveGapFillPlugin}. From the pods that have arrived so far (whatever became of them) it predicts the
 * whole-device demand still to come before the arrived GPU demand reaches the cluster's GPU capacity: (whole-device
 * demand arrived / GPU demand arrived) × (capacity − GPU demand arrived). While the cluster's fully free devices are
 * fewer than that, a share that accepts any model does not take a fully free device: it goes onto a device that
 * already holds shares and has room for it, and when no node has one it is unschedulable, as a pod blocked by a
 * reservation. A share that names its models is left to the model reservation and is never held back here. The
 * owner applies the rule only while GPU is the scarce resource (the arrived pods ask less CPU per GPU than the
 * cluster's nodes hold): when CPU is, the whole-GPU pods the devices are held for fail for CPU instead.
 *
 * <p>Why: a share that opens a free device late in the fill leaves the rest of that device (0.19 beside a 0.81 share)
 * to shares that rarely come, and the whole-GPU pod that needed the device fails instead; turning the share away
 * costs its fraction and saves the device for a pod that uses all of it. The prediction uses only what has arrived.
 *
 * <p>Mutable; its owner serialises {@link #arrive} and {@link #holds}. {@link #sharedRoom} is a pure function.
 */
final class WholeDeviceReservation {
  /** Whole-device demand of the arrived pods, milli. */
  private double arrivedWhole;

  /** Counts an arrived pod's demand. */
  void arrive(GpuDemand d) {
    if (d.whole() > 0) {
      arrivedWhole += d.totalMilli();
    }
  }

  /** The whole-device demand (milli) expected before {@code arrivedGpu} reaches {@code capacity} (both milli). */
  double expectedWhole(double arrivedGpu, double capacity) {
    return arrivedGpu <= 0 ? 0 : arrivedWhole / arrivedGpu * Math.max(0, capacity - arrivedGpu);
  }

  /**
   * Whether the share {@code d} must keep off fully free devices: it accepts any model and the cluster's
   * {@code freeDevices} fully free devices are fewer than {@link #expectedWhole}.
   */
  boolean holds(GpuDemand d, double arrivedGpu, double capacity, long freeDevices) {
    return d.isShare() && d.models().isEmpty()
        && (double) freeDevices * NodeGpu.FULL < expectedWhole(arrivedGpu, capacity);
  }

  /** The fully free devices of the cluster's nodes. */
  static long freeDevices(GpuScorer.Candidates cluster) {
    long free = 0;
    for (int k = 0; k < cluster.size(); k++) {
      for (int v : cluster.node(k).free()) {
        free += v == NodeGpu.FULL ? 1 : 0;
      }
    }
    return free;
  }

  /** Whether {@code node} has a device that already holds shares, accepts the share {@code d} and has room for it. */
  static boolean sharedRoom(NodeGpu node, GpuDemand d) {
    for (int g = 0; g < node.devices(); g++) {
      int v = node.free()[g];
      if (v < NodeGpu.FULL && v >= d.milli() && d.accepts(node.models().get(g))) {
        return true;
      }
    }
    return false;
  }
}
