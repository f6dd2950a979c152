package io.fleetkit.scheduler.plugins.noderesources;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PluginFactory;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreScorePlugin;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import io.fleetkit.scheduler.nodetable.NodeTable;
import io.fleetkit.scheduler.nodetable.TableScore;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * kube's {@code NodeResourcesBalancedAllocation}: favours nodes whose resource fractions ({@code requested /
 * allocatable} with the pod added, capped at 1) are close to each other. Score is {@code (1 - std) * 100} truncated,
 * where std is the population standard deviation of the fractions ({@code |f1 - f2| / 2} for two resources).
 *
 * <p>Uses the real requests (no non-zero defaults). A pod requesting none of the resources is best-effort: PreScore
 * returns Skip, so such pods do not all pile onto one node (kubernetes/kubernetes#129138). Resources the node lacks,
 * and scalar resources the pod does not request, are left out. Thread-safe; Score allocates nothing.
 */
public final class NodeResourcesBalancedAllocationPlugin implements PreScorePlugin, TableScore {
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
    long[] podRequests = podRequests(state, pod);
    if (podRequests == null) {
      return 0;
    }
    if (resources.cpuMemory()) {
      ResourceList a = node.allocatable();
      return cpuMemory(a.milliCpu(), a.memoryBytes(), resources.requestedCpu(node, podRequests[0]),
          resources.requestedMemory(node, podRequests[1]));
    }
    return general(node, podRequests);
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeTable table, int node) {
    long[] podRequests = podRequests(state, pod);
    if (podRequests == null) {
      return 0;
    }
    if (resources.cpuMemory()) {
      return cpuMemory(table.allocatableMilliCpu(node), table.allocatableMemory(node),
          resources.requestedCpu(table, node, podRequests[0]), resources.requestedMemory(table, node, podRequests[1]));
    }
    return general(table.view(node), podRequests);
  }

  @Override
  public void scoreAll(CycleState state, PodInfo pod, NodeTable table, int[] nodes, int from, int to, long[] out) {
    long[] podRequests = podRequests(state, pod);
    if (podRequests == null || !resources.cpuMemory()) {
      TableScore.super.scoreAll(state, pod, table, nodes, from, to, out);
      return;
    }
    long cpuRequest = podRequests[0];
    long memRequest = podRequests[1];
    for (int pos = from; pos < to; pos++) {
      int node = nodes[pos];
      out[pos] = cpuMemory(table.allocatableMilliCpu(node), table.allocatableMemory(node),
          resources.requestedCpu(table, node, cpuRequest), resources.requestedMemory(table, node, memRequest));
    }
  }

  /**
   * The score depends on the node and the pod's request vector alone (the resources are fixed per instance); null for
   * a best-effort pod, whose score is 0 everywhere.
   */
  @Override
  public long @Nullable [] scoreKey(CycleState state, PodInfo pod) {
    return podRequests(state, pod);
  }

  /** PreScore's request vector, computed on the fly when PreScore was skipped (as kube); null for a best-effort pod. */
  private long @Nullable [] podRequests(CycleState state, PodInfo pod) {
    long[] podRequests = state.read(PRE_SCORE_KEY);
    if (podRequests == null) {
      podRequests = resources.podRequests(pod);
      if (ResourceVector.allZero(podRequests)) {
        return null;
      }
    }
    return podRequests;
  }

  /** The general loop below for exactly {cpu, memory}, without the per-resource dispatch. */
  private static long cpuMemory(long cpuAlloc, long memAlloc, long cpuRequested, long memRequested) {
    if (cpuAlloc == 0 || memAlloc == 0) {
      return MAX_NODE_SCORE; // at most one fraction: std 0
    }
    double cpu = Math.min((double) cpuRequested / (double) cpuAlloc, 1);
    double mem = Math.min((double) memRequested / (double) memAlloc, 1);
    double std = Math.abs((cpu - mem) / 2);
    return (long) ((1 - std) * MAX_NODE_SCORE);
  }

  private long general(NodeInfo node, long[] podRequests) {
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
