package io.fleetkit.autoscale.cluster;

import io.fleetkit.api.core.GpuRequests;
import io.fleetkit.api.core.Pod;
import io.fleetkit.api.resource.ResourceList;
import io.fleetkit.api.framework.NodeInfo;
import io.fleetkit.api.framework.PodInfo;
import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How busy a node is, for scale-down (upstream's {@code simulator/utilization.Calculate}): the pods' requests over the
 * node's allocatable.
 *
 * <ul>
 *   <li>A GPU node (allocatable {@code nvidia.com/gpu > 0}, or GPU devices in {@code status.gpus}: upstream's node
 *       with a GPU config) is judged by its GPUs alone; one whose GPUs are not allocatable (yet) has utilization 0,
 *       as upstream's "unready GPU" node, so that it can still be scaled down.
 *   <li>A node with DRA devices (node-local ResourceSlices) is judged by its most used device pool
 *       ({@link DeviceUtilization}): a node whose devices are allocated is busy however little CPU its pods request.
 *       Unknown device utilization (an unallocated claim, an incomplete pool) is {@link Double#NaN}, as below.
 *   <li>Other nodes by the larger of CPU and memory. A node with no CPU or no memory allocatable has no utilization
 *       ({@link Double#NaN}, upstream's error): scale-down leaves it alone.
 *   <li>A pod being deleted for longer than its grace period plus 30 s ({@link TerminatingPods#isLongTerminating} at
 *       the given time) counts as gone.
 *   <li>With {@code skipDaemonSetPods} ({@code --ignore-daemonsets-utilization}) the requests of the DaemonSet pods
 *       ({@link TemplateNodes#isDaemonSetPod}) are taken out of the allocatable instead of counted; with
 *       {@code skipMirrorPods} ({@code --ignore-mirror-pods-utilization}) those of the mirror pods alike. Such pods
 *       are taken out even when long-terminating, as upstream checks them first.
 * </ul>
 *
 * @param cpu requested / allocatable CPU ({@link Double#NaN} when none is allocatable)
 * @param memory requested / allocatable memory (likewise)
 * @param gpu requested / allocatable GPUs, whole devices plus {@code fleetkit.io/gpu-milli} shares (0 when none is
 *     allocatable)
 * @param gpuNode whether the node has GPUs
 * @param devices the utilization of the node's DRA devices, or {@code null} for a node without node-local slices
 */
public record NodeUtilization(double cpu, double memory, double gpu, boolean gpuNode,
    @Nullable DeviceUtilization devices) {

  /** The utilization of a node without DRA devices. */
  public NodeUtilization(double cpu, double memory, double gpu, boolean gpuNode) {
    this(cpu, memory, gpu, gpuNode, null);
  }

  /** This utilization with that of the node's DRA devices ({@code null}: the node has none). */
  public NodeUtilization withDevices(@Nullable DeviceUtilization d) {
    return new NodeUtilization(cpu, memory, gpu, gpuNode, d);
  }

  /** The utilization of {@code node}'s pods at {@code now}: every pod counted but the long-terminating ones. */
  public static NodeUtilization of(NodeInfo node, Instant now) {
    return of(node, false, false, now);
  }

  /**
   * The utilization of {@code node}'s pods at {@code now}, the long-terminating ones left out; with
   * {@code skipDaemonSetPods} and {@code skipMirrorPods} the DaemonSet and mirror pods' requests taken out of the
   * allocatable rather than counted as requested (GPUs alike, as upstream's {@code Calculate} passes the options to
   * the GPU's utilization too).
   */
  public static NodeUtilization of(NodeInfo node, boolean skipDaemonSetPods, boolean skipMirrorPods, Instant now) {
    return compute(node, skipDaemonSetPods, skipMirrorPods, Objects.requireNonNull(now, "now"));
  }

  /**
   * {@link #of(NodeInfo, boolean, boolean, Instant)} for a node none of whose pods is being deleted (the caller knows
   * it; then the time does not matter and no pod's deletion is read).
   */
  static NodeUtilization noneTerminating(NodeInfo node, boolean skipDaemonSetPods, boolean skipMirrorPods) {
    return compute(node, skipDaemonSetPods, skipMirrorPods, null);
  }

  /** The utilization; {@code now == null}: no pod is long-terminating. */
  private static NodeUtilization compute(NodeInfo node, boolean skipDaemonSetPods, boolean skipMirrorPods,
      @Nullable Instant now) {
    ResourceList alloc = node.allocatable();
    long cpuReq = 0;
    long memReq = 0;
    long gpuMilli = 0;
    long skippedCpu = 0;
    long skippedMem = 0;
    long skippedGpuMilli = 0;
    for (PodInfo p : node.pods()) {
      ResourceList r = p.requests();
      // upstream's order: DaemonSet pods, then mirror pods are taken out of the allocatable, then long-terminating
      // pods are left out
      if ((skipDaemonSetPods && TemplateNodes.isDaemonSetPod(p.pod()))
          || (skipMirrorPods && TemplateNodes.isMirrorPod(p.pod()))) {
        skippedCpu += r.milliCpu();
        skippedMem += r.memoryBytes();
        skippedGpuMilli += gpuMilli(r);
        continue;
      }
      if (now != null && isLongTerminating(p.pod(), now)) {
        continue;
      }
      cpuReq += r.milliCpu();
      memReq += r.memoryBytes();
      gpuMilli += gpuMilli(r);
    }
    long gpuAlloc = GpuRequests.whole(alloc);
    boolean gpuNode = gpuAlloc > 0 || !node.node().status().gpus().isEmpty();
    double gpu = gpuAlloc == 0 ? 0
        : ratio(gpuMilli, gpuAlloc * GpuRequests.MILLI_PER_DEVICE - skippedGpuMilli);
    return new NodeUtilization(known(alloc.milliCpu(), ratio(cpuReq, alloc.milliCpu() - skippedCpu)),
        known(alloc.memoryBytes(), ratio(memReq, alloc.memoryBytes() - skippedMem)), gpu, gpuNode);
  }

  private static boolean isLongTerminating(Pod pod, Instant now) {
    return pod.metadata().deletionTimestamp() != null && TerminatingPods.isLongTerminating(pod, now);
  }

  private static long gpuMilli(ResourceList r) {
    return GpuRequests.whole(r) * GpuRequests.MILLI_PER_DEVICE + GpuRequests.milli(r);
  }

  /** {@code ratio}, or NaN when nothing of the resource is allocatable (upstream's error). */
  private static double known(long allocatable, double ratio) {
    return allocatable <= 0 ? Double.NaN : ratio;
  }

  private static double ratio(long requested, long allocatable) {
    return allocatable <= 0 ? 0 : (double) requested / allocatable;
  }

  /**
   * What scale-down compares to its threshold (upstream's {@code Info.Utilization}): GPU utilization on GPU nodes,
   * else the highest device pool's on nodes with DRA devices, else max(cpu, memory); {@link Double#NaN} when it cannot
   * be known ({@link #known()}).
   */
  public double value() {
    DeviceUtilization d = devices;
    return gpuNode ? gpu : d != null ? d.highest() : Math.max(cpu, memory);
  }

  /**
   * The resource {@link #value()} is of (upstream's {@code Info.ResourceName}): {@code nvidia.com/gpu} on GPU nodes,
   * {@code <driver>/<pool>} of the most used device pool on nodes with DRA devices (empty when not known), else
   * {@code cpu} when CPU is the more used, else {@code memory}.
   */
  public String resourceName() {
    DeviceUtilization d = devices;
    return gpuNode ? GpuRequests.WHOLE : d != null ? d.highestPool() : cpu > memory ? "cpu" : "memory";
  }

  /**
   * Whether the utilization could be computed: false for a node without GPUs or DRA devices that has no CPU or no
   * memory allocatable, and for a node whose device utilization is not known (upstream's {@code Calculate} returns an error, and its eligibility check finds the node unremovable with
   * {@code UnexpectedError}).
   */
  public boolean known() {
    return !Double.isNaN(value());
  }
}
