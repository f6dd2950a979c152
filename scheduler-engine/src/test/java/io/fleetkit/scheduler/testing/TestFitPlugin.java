package io.fleetkit.scheduler.testing;

import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ScorePlugin;
import io.fleetkit.api.framework.Status;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A test-only resource filter (cpu, memory, pod count, with kube's reasons) and LeastAllocated-style score, standing in
 * for NodeResourcesFit in engine tests.
 */
public final class TestFitPlugin implements FilterPlugin, ScorePlugin {
  public static final String NAME = "TestFit";

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    ResourceList alloc = node.allocatable();
    ResourceList used = node.requested();
    ResourceList req = pod.requests();
    @Nullable List<String> reasons = null;
    if (node.pods().size() + 1 > alloc.pods()) {
      reasons = add(reasons, "Too many pods");
    }
    if (req.milliCpu() > 0 && used.milliCpu() + req.milliCpu() > alloc.milliCpu()) {
      reasons = add(reasons, "Insufficient cpu");
    }
    if (req.memoryBytes() > 0 && used.memoryBytes() + req.memoryBytes() > alloc.memoryBytes()) {
      reasons = add(reasons, "Insufficient memory");
    }
    return reasons == null ? Status.success() : Status.unschedulable(reasons.toArray(new String[0]));
  }

  private static List<String> add(@Nullable List<String> l, String r) {
    List<String> out = l == null ? new ArrayList<>(2) : l;
    out.add(r);
    return out;
  }

  @Override
  public long score(CycleState state, PodInfo pod, NodeInfo node) {
    long alloc = node.allocatable().milliCpu();
    if (alloc <= 0) {
      return 0;
    }
    long free = alloc - node.nonZeroRequestedMilliCpu() - pod.nonZeroMilliCpu();
    return Math.max(0, free * 100 / alloc);
  }
}
