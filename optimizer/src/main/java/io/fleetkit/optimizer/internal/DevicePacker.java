package io.fleetkit.optimizer.internal;

import java.util.Arrays;
import java.util.Collection;

/**
 * Device-level GPU feasibility of a set of pods on one node: whole-device requests take fully free devices, then
 * shares, largest first, go best-fit to the device with the least room that holds them (first-fit-decreasing with
 * best fit). If this packing fits, the scheduler's device assignment exists; what does not fit is the overflow, a hard
 * violation. Stateless.
 */
final class DevicePacker {
  /** The packing's outcome: overflowing demand (milli), devices the pods touch, free milli stranded on them. */
  record Pack(long overflow, int touched, long stranded) {}

  private DevicePacker() {}

  static Pack pack(NodeFact node, Collection<PodSlot> pods) {
    int[] free = node.deviceFree.clone();
    boolean[] touched = new boolean[free.length];
    int wholes = 0;
    int shares = 0;
    for (PodSlot p : pods) {
      wholes += p.wholeGpus;
      if (p.milli > 0) {
        shares++;
      }
    }
    if (wholes == 0 && shares == 0) {
      return new Pack(0, 0, 0);
    }
    long overflow = 0;
    for (int d = 0; d < free.length && wholes > 0; d++) {
      if (free[d] == 1000) {
        free[d] = 0;
        touched[d] = true;
        wholes--;
      }
    }
    overflow += 1000L * wholes;
    if (shares > 0) {
      int[] s = new int[shares];
      int i = 0;
      for (PodSlot p : pods) {
        if (p.milli > 0) {
          s[i++] = p.milli;
        }
      }
      Arrays.sort(s);
      for (int k = s.length - 1; k >= 0; k--) {
        int best = -1;
        for (int d = 0; d < free.length; d++) {
          if (free[d] >= s[k] && (best < 0 || free[d] < free[best])) {
            best = d;
          }
        }
        if (best < 0) {
          overflow += s[k];
        } else {
          free[best] -= s[k];
          touched[best] = true;
        }
      }
    }
    int t = 0;
    long stranded = 0;
    for (int d = 0; d < free.length; d++) {
      if (touched[d]) {
        t++;
        stranded += free[d];
      }
    }
    return new Pack(overflow, t, stranded);
  }
}
