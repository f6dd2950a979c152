package io.fleetkit.adapter.slurm;

import io.fleetkit.api.core.GpuDevice;
import io.fleetkit.api.core.Node;
import io.fleetkit.api.core.NodeAddress;
import io.fleetkit.api.core.NodeCondition;
import io.fleetkit.api.meta.ConditionStatus;
import io.fleetkit.api.resource.Quantity;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.resource.ResourceNames;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * A node as slurmrestd v0.0.38 reports it ({@code GET /nodes}), with {@link #toNode()} for the FleetKit view.
 *
 * @param name the Slurm node name, e.g. {@code "n1"}
 * @param address {@code NodeAddr}
 * @param hostname {@code NodeHostname}
 * @param state the base state in lower case: {@code idle}, {@code mixed}, {@code allocated}, {@code down},
 *     {@code unknown}, {@code future}, ...
 * @param stateFlags upper-case flags such as {@code DRAIN}, {@code DRAINING}, {@code NOT_RESPONDING},
 *     {@code MAINTENANCE}, {@code INVALID_REG}
 * @param cpus configured CPUs
 * @param allocCpus allocated CPUs (Slurm sometimes reports 0 for an allocated node; informational only)
 * @param realMemoryMiB configured memory in MiB ({@code RealMemory}, which Slurm calls MB)
 * @param allocMemoryMiB allocated memory in MiB
 * @param gpus GPUs from the {@code gres} string ({@code gpu:2}, {@code gpu:a100:4(S:0-1)})
 * @param gpuModel the GPU type from the {@code gres} string ({@code a100}), empty if untyped
 * @param gpusUsed GPUs in use, from {@code gres_used}
 * @param partitions the partitions the node is in
 * @param reason why the node is down or drained, empty otherwise
 */
public record SlurmNode(String name, String address, String hostname, String state, List<String> stateFlags,
    int cpus, int allocCpus, long realMemoryMiB, long allocMemoryMiB, int gpus, String gpuModel, int gpusUsed,
    List<String> partitions, String reason) {
  /** Label with the Slurm node state on the FleetKit node. */
  public static final String STATE_LABEL = "slurm.fleetkit.io/state";
  /** Label prefix marking each partition the node is in ({@code slurm.fleetkit.io/partition.debug=true}). */
  public static final String PARTITION_LABEL_PREFIX = "slurm.fleetkit.io/partition.";
  /** Reason of the Ready condition of a node that Slurm does not consider usable. */
  public static final String REASON_NOT_USABLE = "SlurmNodeNotUsable";

  public SlurmNode {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(address, "address");
    Objects.requireNonNull(hostname, "hostname");
    state = state.toLowerCase(Locale.ROOT);
    stateFlags = stateFlags.stream().map(s -> s.toUpperCase(Locale.ROOT)).toList();
    Objects.requireNonNull(gpuModel, "gpuModel");
    partitions = List.copyOf(partitions);
    Objects.requireNonNull(reason, "reason");
  }

  /** Whether Slurm may start new jobs here: not down/unknown/future, not drained, not in maintenance. */
  public boolean isUsable() {
    return (state.equals("idle") || state.equals("mixed") || state.equals("allocated")
        || state.equals("completing")) && !isDraining() && !stateFlags.contains("NOT_RESPONDING")
        && !stateFlags.contains("MAINTENANCE") && !stateFlags.contains("INVALID_REG")
        && !stateFlags.contains("POWERED_DOWN");
  }

  /** Whether the node is drained or draining (an operator's cordon). */
  public boolean isDraining() {
    return stateFlags.contains("DRAIN") || stateFlags.contains("DRAINING") || stateFlags.contains("DRAINED")
        || state.equals("drained") || state.equals("draining");
  }

  /**
   * The FleetKit node: capacity {@code cpu} = cpus, {@code memory} = realMemoryMiB Mi, {@code nvidia.com/gpu} =
   * gpus (when there are any) and one {@link GpuDevice} per GPU (id {@code gpu<i>}, model from the GRES type);
   * Ready is True only for a usable node (false with {@link #REASON_NOT_USABLE} and Slurm's state and reason
   * otherwise); a drained node is unschedulable (cordoned); labels carry the state and partitions.
   */
  public Node toNode() {
    ResourceList.Builder cap = ResourceList.builder()
        .put(ResourceNames.CPU, Quantity.of(cpus))
        .put(ResourceNames.MEMORY, Quantity.ofBytes(realMemoryMiB * 1024L * 1024L));
    if (gpus > 0) {
      cap.put(ResourceNames.NVIDIA_GPU, Quantity.of(gpus));
    }
    Node.Builder b = Node.builder()
        .name(name)
        .label("kubernetes.io/hostname", name)
        .label(STATE_LABEL, state)
        .capacity(cap.build())
        .unschedulable(isDraining());
    for (String p : partitions) {
      b.label(PARTITION_LABEL_PREFIX + p, "true");
    }
    for (int i = 0; i < gpus; i++) {
      b.gpu(GpuDevice.of("gpu" + i, gpuModel, 0));
    }
    if (isUsable()) {
      b.condition(NodeCondition.ready());
    } else {
      String what = stateFlags.isEmpty() ? state : state + "+" + String.join("+", stateFlags);
      b.condition(new NodeCondition(NodeCondition.READY, ConditionStatus.False, REASON_NOT_USABLE,
          "slurm node state " + what + (reason.isEmpty() ? "" : ": " + reason), null, null));
    }
    if (!address.isEmpty()) {
      b.address(new NodeAddress("InternalIP", address));
    }
    if (!hostname.isEmpty()) {
      b.address(new NodeAddress("Hostname", hostname));
    }
    return b.build();
  }
}
