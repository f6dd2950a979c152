package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import java.util.List;
import java.util.Objects;

/**
 * kube's {@code NodeResourcesBalancedAllocation}: favours nodes whose resource fractions ({@code requested /
 * allocatable} with the pod added, capped at 1) are close to each other. Score is {@code (1 - std) * 100} truncated,
 * where std is the population standard deviation of the fractions ({@code |f1 - f2| / 2} for two resources).
 *
 * <p>Uses the real requests (no non-zero defaults). A pod requesting none of the resources is best-effort: PreScore
 * returns Skip, so such pods do not all pile onto one node (kubernetes/kubernetes#129138). Resources the node lacks,
 * and scalar resources the pod does not request, are left out. Thread-safe; Score allocates nothing.
 */
public final class NodeResourcesBalancedAllocationPlugin implements PreScorePlugin, ScorePlugin {
  public static final String NAME = "NodeResourcesBalancedAllocation";

  /** Builds the plugin from the profile's args for {@value #NAME}. */
  public static final PluginFactory FACTORY = handle -> new NodeResourcesBalancedAllocationPlugin(
      NodeResourcesBalancedAllocationArgs.fromMap(handle.pluginArgs(NAME)));

  static final StateKey<long[]> PRE_SCORE_KEY = StateKey.of("PreScore" + NAME, long[].class);

  private final NodeResourcesBalancedAllocationArgs args;
  private final ResourceVector resources;

  public NodeResourcesBalancedAllocationPlugin(NodeResourcesBalancedAllocationArgs args) {
    this.args = Objects.requireNonNull(args, "args");
    this.resources = new ResourceVector(args.resources(), true);
  }

  /** Balancing cpu and memory. */
  public NodeResourcesBalancedAllocationPlugin() {
    this(NodeResourcesBalancedAllocationArgs.DEFAULT);
  }

  public NodeResourcesBalancedAllocationArgs args() {
    return args;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status preScore(CycleState state, PodInfo pod, List<NodeInfo> feasibleNodes) {
    long[] podRequests = resources.podRequests(pod);
    if (ResourceVector.allZero(podRequests)) {
      return Status.skip();
    }
    state.write(PRE_SCORE_KEY, podRequests);
    return Status.success();
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    long[] podRequests = state.read(PRE_SCORE_KEY);
    if (podRequests == null) {
      podRequests = resources.podRequests(pod); // as kube: PreScore skipped, compute on the fly
      if (ResourceVector.allZero(podRequests)) {
        return 0;
      }
    }
    if (resources.cpuMemory()) {
      // The general loop below for exactly {cpu, memory}, without the per-resource dispatch.
      ResourceList a = node.allocatable();
      long cpuAlloc = a.milliCpu();
      long memAlloc = a.memoryBytes();
      if (cpuAlloc == 0 || memAlloc == 0) {
        return MAX_NODE_SCORE; // at most one fraction: std 0
      }
      double cpu = Math.min((double) resources.requestedCpu(node, podRequests[0]) / (double) cpuAlloc, 1);
      double mem = Math.min((double) resources.requestedMemory(node, podRequests[1]) / (double) memAlloc, 1);
      double std = Math.abs((cpu - mem) / 2);
      return (long) ((1 - std) * MAX_NODE_SCORE);
    }
    // Two passes over the resources (recomputing each fraction) instead of a scratch array: same arithmetic, in the
    // same order, as kube's balancedResourceScorer, without allocating.
    int count = 0;
    double total = 0;
    double first = 0;
    double second = 0;
    for (int i = 0; i < resources.size(); i++) {
      double f = fraction(i, node, podRequests[i]);
      if (f < 0) {
        continue;
      }
      if (count == 0) {
        first = f;
      } else if (count == 1) {
        second = f;
      }
      total += f;
      count++;
    }
    double std = 0;
    if (count == 2) {
      std = Math.abs((first - second) / 2);
    } else if (count > 2) {
      double mean = total / count;
      double sum = 0;
      for (int i = 0; i < resources.size(); i++) {
        double f = fraction(i, node, podRequests[i]);
        if (f >= 0) {
          sum = sum + (f - mean) * (f - mean);
        }
      }
      std = Math.sqrt(sum / count);
    }
    return (long) ((1 - std) * MAX_NODE_SCORE);
  }

  /** requested / allocatable capped at 1, or -1 when the resource is left out. */
  private double fraction(int i, NodeInfo node, long podRequest) {
    long allocatable = resources.allocatable(i, node, podRequest);
    if (allocatable == 0) {
      return -1;
    }
    double f = (double) resources.requested(i, node, podRequest) / (double) allocatable;
    return Math.min(f, 1);
  }
}
