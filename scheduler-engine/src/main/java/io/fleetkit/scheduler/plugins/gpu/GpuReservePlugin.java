package io.fleetkit.scheduler.plugins.gpu;

import io.fleetkit.api.framework.CycleState;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import io.fleetkit.api.framework.ReservePlugin;
import io.fleetkit.api.framework.Snapshot;
import io.fleetkit.api.framework.Status;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Picks the device ids of a GPU pod on its chosen node (see {@link DeviceLedger#pick}) and reserves them in the
 * shared {@link GpuAssignments}; {@link GpuBinder} then records them on the pod at bind. Unreserve releases them.
 */
public final class GpuReservePlugin implements ReservePlugin {
  public static final String NAME = "GpuReserve";
  public static final String REASON_GONE = "GPU devices were taken before they could be reserved";

  private final GpuAssignments assignments;
  private final Supplier<Snapshot> snapshot;
  private final boolean requireOneGroup;
  private final @Nullable GpuScorer sharePicker;

  GpuReservePlugin(GpuAssignments assignments, Supplier<Snapshot> snapshot, boolean requireOneGroup,
      @Nullable GpuScorer sharePicker) {
    this.assignments = assignments;
    this.snapshot = snapshot;
    this.requireOneGroup = requireOneGroup;
    this.sharePicker = sharePicker;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Status reserve(CycleState state, PodInfo pod, String nodeName) {
    GpuDemand d = state.read(GpuFilterPlugin.DEMAND);
    if (d == null) {
      d = GpuDemand.of(pod.pod());
      if (d.isNone()) {
        return Status.success();
      }
    }
    NodeInfo node = snapshot.get().get(nodeName);
    if (node == null) {
      return Status.error("GPU reserve: node " + nodeName + " is not in the snapshot");
    }
    // The snapshot's node may already hold this pod (assumed): build the ledger without it.
    assignments.unreserve(pod.key());
    DeviceLedger l = assignments.ledgerWithout(node, pod.key());
    int[] picked = null;
    if (d.isShare() && sharePicker != null) {
      long cpuLeft = node.allocatable().milliCpu() - node.requestedMilliCpu();
      for (PodInfo p : node.pods()) {
        if (p.key().equals(pod.key())) {
          cpuLeft += p.requests().milliCpu();
        }
      }
      int g = sharePicker.shareDevice(new GpuPod(pod.key(), NodeGpu.cpu(pod), d),
          NodeGpu.of(nodeName, l, cpuLeft));
      if (g >= 0) {
        picked = new int[] {g};
      }
    }
    if (picked == null) {
      picked = l.pick(d, requireOneGroup);
    }
    if (picked == null) {
      return new Status(Status.Code.UNSCHEDULABLE, java.util.List.of(REASON_GONE), NAME);
    }
    assignments.reserve(pod.key(), nodeName, l.ids(picked));
    return Status.success();
  }

  @Override
  public void unreserve(CycleState state, PodInfo pod, String nodeName) {
    assignments.unreserve(pod.key());
  }

  @Override
  public String toString() {
    return NAME;
  }
}
