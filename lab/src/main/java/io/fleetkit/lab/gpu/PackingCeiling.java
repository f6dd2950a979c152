package io.fleetkit.lab.gpu;

import io.fleetkit.scheduler.plugins.gpu.GpuPolicy;
import java.util.ArrayList;
import java.util.List;

/**
 * How much a better packing of the same share pods could add to one replay, at the arrival where the arrived GPU
 * demand reaches the cluster's GPU capacity (the 100% point). By then the cluster has (almost) no free device left,
 * so the allocation is the capacity minus the gaps on the devices that hold shares. However the shares the policy has
 * placed by then are packed, they need at least {@link ConfigurationBound#minDevices} devices (the configuration LP:
 * nodes, CPU and arrival order ignored, configurations fractional), and those devices leave at least
 * (that many × 1000 − their shares) milli-GPU of gaps: {@link #atCapacity} is 100% minus that, in percent of the
 * capacity.
 *
 * <p>An estimate for one policy's run, not a bound for every policy: another policy places a different set of shares.
 * But a policy that packs better runs out of free devices later, and by then it has placed the same shares and more
 * (mostly 0.81-GPU shares, each leaving 0.19 that few pods fill), so its gaps are not smaller. Stateless.
 */
public final class PackingCeiling {
  private PackingCeiling() {}

  /**
   * 100 minus the least gap (% of the cluster's GPU capacity) that the share pods {@code policy} has placed by the
   * 100% point of the replay {@code TraceReplay.run(nodes, pods, policy, seed)} leave on their devices, however
   * they are packed.
   */
  public static double atCapacity(List<TraceNode> nodes, List<TracePod> pods, GpuPolicy policy, long seed) {
    long capacity = 1000L * nodes.stream().mapToLong(n -> Math.max(0, n.gpus())).sum();
    List<TracePod> shares = new ArrayList<>();
    long volume = 0;
    for (int milli : TraceReplay.sharesPlacedAtCapacity(nodes, pods, policy, seed)) {
      shares.add(new TracePod("share-" + shares.size(), 0, 0, 1, milli, List.of()));
      volume += milli;
    }
    long gaps = ConfigurationBound.minDevices(shares) * 1000 - volume;
    return 100.0 * (capacity - gaps) / capacity;
  }
}
