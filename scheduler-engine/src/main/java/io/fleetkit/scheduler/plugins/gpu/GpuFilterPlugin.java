package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.FilterPlugin;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.PreFilterPlugin;
import io.fleetkit.api.framework.PreFilterResult;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.StateKey;
import io.fleetkit.api.framework.Status;
import java.util.List;

/**
 * Whether a node's devices can take a pod's GPU request: enough free whole devices of an accepted model (never a
 * device with any share on it), or one device with room for the share (a device's shares never pass 1000). With
 * {@code requireOneGroup}, a multi-GPU pod fits only if one interconnect group (or NUMA node) holds all its devices.
 *
 * <p>PreFilter Skips pods without GPU requests. Filter allocates nothing.
 */
public final class GpuFilterPlugin implements PreFilterPlugin, FilterPlugin {
  public static final String NAME = "GpuFit";
  public static final String REASON_INSUFFICIENT = "Insufficient nvidia.com/gpu";
  public static final String REASON_MODEL = "node(s) didn't have an accepted GPU model";
  public static final String REASON_TOPOLOGY = "node(s) didn't have enough free GPUs in one interconnect group";

  static final StateKey<GpuDemand> DEMAND = StateKey.of(NAME + "/demand", GpuDemand.class);

  private static final Status INSUFFICIENT = new Status(Status.Code.UNSCHEDULABLE, List.of(REASON_INSUFFICIENT), NAME);
  private static final Status MODEL =
      new Status(Status.Code.UNSCHEDULABLE_AND_UNRESOLVABLE, List.of(REASON_MODEL), NAME);
  private static final Status TOPOLOGY = new Status(Status.Code.UNSCHEDULABLE, List.of(REASON_TOPOLOGY), NAME);

  private final GpuAssignments assignments;
  private final boolean requireOneGroup;

  GpuFilterPlugin(GpuAssignments assignments, boolean requireOneGroup) {
    this.assignments = assignments;
    this.requireOneGroup = requireOneGroup;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public PreFilterResult preFilter(CycleState state, PodInfo pod, Snapshot snapshot) {
    GpuDemand d = GpuDemand.of(pod.pod());
    if (d.isNone()) {
      return PreFilterResult.skip();
    }
    state.write(DEMAND, d);
    return PreFilterResult.success();
  }

  @Override
  public Status filter(CycleState state, PodInfo pod, NodeInfo node) {
    GpuDemand d = state.read(DEMAND);
    if (d == null) {
      return Status.success();
    }
    if (node.node().status().gpus().isEmpty()) {
      return INSUFFICIENT;
    }
    DeviceLedger l = assignments.ledger(node);
    boolean anyModel = false;
    for (var g : l.devices()) {
      if (d.accepts(g.model())) {
        anyModel = true;
        break;
      }
    }
    if (!anyModel) {
      return MODEL;
    }
    if (l.pick(d, false) == null) {
      return INSUFFICIENT;
    }
    if (requireOneGroup && d.whole() > 1 && l.maxFreeInOneGroup(d) < d.whole()) {
      return TOPOLOGY;
    }
    return Status.success();
  }

  @Override
  public String toString() {
    return NAME;
  }
}
