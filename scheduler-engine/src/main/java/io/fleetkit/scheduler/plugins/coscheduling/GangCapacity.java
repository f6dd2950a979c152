package io.fleetkit.scheduler.plugins.coscheduling;

import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.Snapshot;
import org.jspecify.annotations.Nullable;

/**
 * A quick, sound test of whether a gang can fit at all: the free capacity summed over the nodes a member could use
 * (schedulable, matching its node selector and required node affinity, tolerating their NoSchedule/NoExecute taints)
 * against what the {@code need} still unplaced members request. Free capacity summed over nodes is an upper bound
 * of what can be reserved, so a gang this rejects cannot fit; one it accepts may still not fit (fragmentation), which
 * Filter and PostFilter then find out. One pass over the nodes per gang attempt, not per pod.
 */
final class GangCapacity {
  private GangCapacity() {}

  /**
   * Why the gang cannot fit, or {@code null} if it might.
   *
   * @param groupKey {@code namespace/name} of the group, for the message
   * @param member a representative member (members of a gang are normally alike)
   * @param need how many more members must be placed
   */
  static @Nullable String whyNot(String groupKey, PodInfo member, int need, Snapshot snapshot) {
    if (need <= 0) {
      return null;
    }
    MemberFit fit = new MemberFit(member);
    String[] resources = fit.resources();
    long[] free = new long[resources.length];
    long freeSlots = 0;
    for (NodeInfo ni : snapshot.nodes()) {
      if (!fit.eligible(ni)) {
        continue;
      }
      long[] f = fit.free(ni);
      for (int i = 0; i < resources.length; i++) {
        free[i] += f[i];
      }
      freeSlots += f[resources.length];
    }
    if (freeSlots < need) {
      return "pod group " + groupKey + ": " + need + " pods need " + need + " pod slots, at most " + freeSlots
          + " can be reserved";
    }
    for (int i = 0; i < resources.length; i++) {
      long perPod = fit.perPod(i);
      long needed = perPod * need;
      if (perPod > 0 && needed > free[i]) {
        return "pod group " + groupKey + ": " + need + " pods need " + format(resources[i], needed) + " "
            + resources[i] + ", at most " + format(resources[i], free[i]) + " can be reserved";
      }
    }
    return null;
  }

  static String format(String resource, long milli) {
    if (resource.equals("cpu")) {
      return Quantity.ofMilli(milli).toString();
    }
    if (resource.equals("memory") || resource.equals("ephemeral-storage") || resource.startsWith("hugepages-")) {
      return Quantity.ofBytes(milli / 1000).toString();
    }
    return milli % 1000 == 0 ? Long.toString(milli / 1000) : Quantity.ofMilli(milli).toString();
  }
}
