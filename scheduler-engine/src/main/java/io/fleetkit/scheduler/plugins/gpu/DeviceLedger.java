package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.GpuRequests;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * One node's devices and how much of each is used, in thousandths (1000 = held whole or fully shared). Built once
 * per node generation from the pods' recorded device ids, then read-only, so it is safe to share across threads.
 */
final class DeviceLedger {
  private static final int FULL = GpuRequests.MILLI_PER_DEVICE;

  private final List<GpuDevice> devices;
  private final List<String> models;
  private final int[] used;
  /** Device indices per topology group (interconnect group, else NUMA node, else one group). */
  private final int[][] groups;

  DeviceLedger(List<GpuDevice> devices) {
    this.devices = devices;
    this.models = devices.stream().map(GpuDevice::model).toList();
    this.used = new int[devices.size()];
    Map<String, List<Integer>> byGroup = new LinkedHashMap<>();
    for (int i = 0; i < devices.size(); i++) {
      byGroup.computeIfAbsent(groupOf(devices.get(i)), k -> new ArrayList<>()).add(i);
    }
    groups = byGroup.values().stream().map(l -> l.stream().mapToInt(Integer::intValue).toArray())
        .toArray(int[][]::new);
  }

  static String groupOf(GpuDevice d) {
    if (!d.interconnectGroup().isEmpty()) {
      return "ic:" + d.interconnectGroup();
    }
    return d.numaNode() >= 0 ? "numa:" + d.numaNode() : "";
  }

  List<GpuDevice> devices() {
    return devices;
  }

  /** Each device's model, by index. */
  List<String> models() {
    return models;
  }

  int used(int device) {
    return used[device];
  }

  int indexOf(String id) {
    for (int i = 0; i < devices.size(); i++) {
      if (devices.get(i).id().equals(id)) {
        return i;
      }
    }
    return -1;
  }

  /** Records a pod's devices; false (and nothing recorded) when they are unknown or would overcommit. */
  boolean charge(int[] picked, GpuDemand d) {
    int amount = d.isShare() ? d.milli() : FULL;
    if (picked.length != (d.isShare() ? 1 : d.whole())) {
      return false;
    }
    for (int i : picked) {
      if (i < 0 || used[i] + amount > FULL || (!d.isShare() && used[i] != 0)) {
        return false;
      }
    }
    for (int i : picked) {
      used[i] += amount;
    }
    return true;
  }

  private boolean modelOk(int i, GpuDemand d) {
    return d.accepts(devices.get(i).model());
  }

  /**
   * The devices {@code d} would get here, or {@code null} when it does not fit. A share takes the device with the
   * least room that still fits (lowest index on ties); whole devices come from the one group with the fewest free
   * devices that holds them all, else ({@code requireOneGroup} false) the lowest-indexed free devices.
   */
  int @Nullable [] pick(GpuDemand d, boolean requireOneGroup) {
    if (d.isShare()) {
      int best = -1;
      int bestLeft = Integer.MAX_VALUE;
      for (int i = 0; i < used.length; i++) {
        int left = FULL - used[i];
        if (left >= d.milli() && left < bestLeft && modelOk(i, d)) {
          best = i;
          bestLeft = left;
        }
      }
      return best < 0 ? null : new int[] {best};
    }
    int k = d.whole();
    int[] bestGroup = null;
    int bestFree = Integer.MAX_VALUE;
    for (int[] g : groups) {
      int free = freeIn(g, d);
      if (free >= k && free < bestFree) {
        bestGroup = g;
        bestFree = free;
      }
    }
    if (bestGroup != null) {
      return take(bestGroup, d, k);
    }
    if (requireOneGroup && k > 1) {
      return null;
    }
    int[] all = new int[used.length];
    Arrays.setAll(all, i -> i);
    return freeIn(all, d) >= k ? take(all, d, k) : null;
  }

  /** The most free whole devices of an accepted model in one group. */
  int maxFreeInOneGroup(GpuDemand d) {
    int max = 0;
    for (int[] g : groups) {
      max = Math.max(max, freeIn(g, d));
    }
    return max;
  }

  private int freeIn(int[] group, GpuDemand d) {
    int n = 0;
    for (int i : group) {
      if (used[i] == 0 && modelOk(i, d)) {
        n++;
      }
    }
    return n;
  }

  private int[] take(int[] group, GpuDemand d, int k) {
    int[] out = new int[k];
    int n = 0;
    for (int i = 0; i < group.length && n < k; i++) {
      if (used[group[i]] == 0 && modelOk(group[i], d)) {
        out[n++] = group[i];
      }
    }
    return out;
  }

  String ids(int[] picked) {
    StringBuilder sb = new StringBuilder();
    for (int i : picked) {
      if (sb.length() > 0) {
        sb.append(',');
      }
      sb.append(devices.get(i).id());
    }
    return sb.toString();
  }
}
